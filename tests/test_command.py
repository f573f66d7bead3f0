"""The command model: programs behind wrappers, options by the per-program table, redirects."""

from __future__ import annotations

import pytest
from tree_sitter import Query

from pipelint.programs import command
from pipelint.programs import pipeline
from pipelint.shell import syntax


def read(script: str) -> command.Command:
    root = syntax.parse(script.encode()).root_node
    node = next(node for node in syntax.walk(root) if node.type == "command")
    return command.read(node)


def texts(nodes) -> list[str]:
    return [syntax.text(node).decode() for node in nodes]


def options(model: command.Command) -> list[tuple[str, str | None]]:
    return [(o.name, None if o.value is None else o.value.decode()) for o in model.options]


@pytest.mark.parametrize(
    ("script", "program", "wrappers"),
    [
        ("psql -d db", "psql", []),
        ("/usr/bin/psql -d db", "psql", []),
        ("sudo -u postgres nice -n 19 psql -d db", "psql", ["sudo", "nice"]),
        ("sudo -u postgres PGOPTIONS=x psql", "psql", ["sudo"]),
        ("env A=1 B=2 mysql db", "mysql", ["env"]),
        ("env -i -u HOME -- mysql db", "mysql", ["env"]),
        ("nice -19 gzip f", "gzip", ["nice"]),
        ("nice --adjustment=5 gzip f", "gzip", ["nice"]),
        ("ionice -c 3 xz f", "xz", ["ionice"]),
        ("nohup tar czf - d", "tar", ["nohup"]),
        ("time -p gzip f", "gzip", ["time"]),
        ("/usr/bin/time -f %e -o t.txt gzip f", "gzip", ["time"]),
        ("command cat f", "cat", ["command"]),
        ("command -p cat f", "cat", ["command"]),
        ("exec cat f", "cat", ["exec"]),
        ("exec -a name cat f", "cat", ["exec"]),
        ("sshpass -p secret ssh host", "ssh", ["sshpass"]),
        ("sshpass -fpass.txt ssh host", "ssh", ["sshpass"]),
        ("stdbuf -oL grep x", "grep", ["stdbuf"]),
        ("timeout -s KILL 5 dd if=a of=b", "dd", ["timeout"]),
        ("timeout --kill-after=1 5s dd if=a of=b", "dd", ["timeout"]),
        ("chrt -f 10 dd if=a of=b", "dd", ["chrt"]),
        ("taskset -c 0,1 gzip f", "gzip", ["taskset"]),
        ("taskset 0x3 gzip f", "gzip", ["taskset"]),
        ("doas -u backup tee f", "tee", ["doas"]),
        ("sudo 'mysql' db", "mysql", ["sudo"]),
        # Wrappers that run nothing: the wrapper is the program.
        ("command -v foo", "command", []),
        ("command -V foo", "command", []),
        ("sudo -l", "sudo", []),
        ("exec", "exec", []),
        ("env", "env", []),
        ("timeout 5", "timeout", []),
        ("chrt -p 10 123", "chrt", []),
        ("taskset -p 0x3 123", "taskset", []),
        ("ionice -c 3 -p 123", "ionice", []),
    ],
)
def test_program_behind_wrappers(script, program, wrappers):
    model = read(script)
    assert model.program == program.encode()
    assert [w.name.decode() for w in model.wrappers] == wrappers
    assert model.exact


@pytest.mark.parametrize(
    "script",
    ['sudo "$cmd" x', "sudo $opts mysql", 'env -S "mysql db"', "env --split-string='a b' mysql", '$tool -c f', 'env "$x" mysql'],
)
def test_program_unknown(script):
    model = read(script)
    assert model.program is None
    assert not model.exact


def test_program_node_is_the_word_to_edit():
    model = read("sudo -u x cat f")
    assert syntax.text(model.program_node) == b"cat"
    assert texts(model.arguments) == ["f"]
    assert syntax.text(read("cat f").program_node) == b"cat"


def test_assignments_are_the_commands_own():
    model = read("LC_ALL=C sort -u f")
    assert texts(model.assignments) == ["LC_ALL=C"]
    assert read("env LC_ALL=C sort -u f").assignments == ()


def test_runs_as_other_user():
    assert read("sudo cat f").runs_as_other_user
    assert read("doas cat f").runs_as_other_user
    assert not read("nice cat f").runs_as_other_user
    assert not read("cat f").runs_as_other_user


@pytest.mark.parametrize(
    ("script", "expected_options", "expected_operands"),
    [
        ("gzip -c9 f", [("-c", None), ("-9", None)], ["f"]),
        ("zstd -19 -T0 f", [("-19", None), ("-T", "0")], ["f"]),
        ("zstd -o out.zst f", [("-o", "out.zst")], ["f"]),
        ("zstd -oout.zst f", [("-o", "out.zst")], ["f"]),
        ("gzip --suffix .z f", [("--suffix", ".z")], ["f"]),
        ("gzip --best -- -f", [("--best", None)], ["-f"]),
        ("cat -- -f", [], ["-f"]),
        ("cat - f", [], ["-", "f"]),
        ("grep x f -i", [("-i", None)], ["x", "f"]),
        ("grep --color=auto -e x f", [("--color", "auto"), ("-e", "x")], ["f"]),
        ("grep --color x f", [("--color", None)], ["x", "f"]),
        ("grep -A 3 x f", [("-A", "3")], ["x", "f"]),
        ("sort -k2,2 -t, -u f", [("-k", "2,2"), ("-t", ","), ("-u", None)], ["f"]),
        ("tar czf - dir", [("-c", None), ("-z", None), ("-f", "-")], ["dir"]),
        ("tar -czf out.tgz dir", [("-c", None), ("-z", None), ("-f", "out.tgz")], ["dir"]),
        ("tar --create --file=a.tar dir", [("--create", None), ("--file", "a.tar")], ["dir"]),
        ("ssh -p 2222 -C host cmd -t", [("-p", "2222"), ("-C", None)], ["host", "cmd", "-t"]),
        ("ssh -o Compression=yes host", [("-o", "Compression=yes")], ["host"]),
        ("tee -a f", [("-a", None)], ["f"]),
        ("tee --output-error=warn f", [("--output-error", "warn")], ["f"]),
        ("dd if=a bs=1M", [], ["if=a", "bs=1M"]),
        ("sudo -u x mount -t nfs4 -o ro srv:/x /mnt/x", [("-t", "nfs4"), ("-o", "ro")], ["srv:/x", "/mnt/x"]),
        ("sshfs h:/ /mnt/h -o reconnect", [("-o", "reconnect")], ["h:/", "/mnt/h"]),
        # OpenSSH reads options again after the host, up to the command; `--` before the host stops that.
        ("ssh h -C 'gunzip > d'", [("-C", None)], ["h", "'gunzip > d'"]),
        ("ssh h -p 22 -o Compression=yes ls -l", [("-p", "22"), ("-o", "Compression=yes")], ["h", "ls", "-l"]),
        ("ssh -- h -C x", [], ["h", "-C", "x"]),
        ("ssh h -- -C x", [], ["h", "-C", "x"]),
        # `mysql -p` takes its password attached only.
        ("mysqldump -psecret db", [("-p", "secret")], ["db"]),
        ("mysql -p db", [("-p", None)], ["db"]),
    ],
)
def test_options_and_operands(script, expected_options, expected_operands):
    model = read(script)
    assert options(model) == expected_options
    assert texts(model.operands) == expected_operands
    assert model.exact


def test_value_node_is_the_separate_word():
    model = read("zstd -o out.zst f")
    assert syntax.text(model.option("-o").value_node) == b"out.zst"
    assert read("zstd -oout.zst f").option("-o").value_node is None
    assert read("gzip -9 f").option("-9").is_whole_word
    assert not read("gzip -c9 f").option("-9").is_whole_word


@pytest.mark.parametrize("script", ['gzip "-$level" f', "gzip -$level f", "tee \"-$flags\" f", "ssh \"-$o\" host"])
def test_computed_option_is_not_exact(script):
    assert not read(script).exact


@pytest.mark.parametrize(
    ("script", "expected_options"),
    [
        ("mysqldump -u$U db", [("-u", None)]),
        ('mysqldump -p"$P" -h$H db', [("-p", None), ("-h", None)]),
        ("mysqldump --password=$P --port=$PORT db", [("--password", None), ("--port", None)]),
        ('mysql "-u$U" db', [("-u", None)]),
        ("mysql -vu${U} db", [("-v", None), ("-u", None)]),
        ("ssh -p$PORT -i$KEY h cmd", [("-p", None), ("-i", None)]),
    ],
)
def test_attached_computed_value_is_read(script, expected_options):
    """A word that starts with an option taking a value holds that option and a computed value (`-u$USER`)."""
    model = read(script)
    assert options(model) == expected_options
    assert model.exact
    assert all(option.takes_value for option in model.options if option.name != "-v")


@pytest.mark.parametrize("script", ["mysql -v$x db", "gzip --$long f", "gzip --fast$x f", "mysql -$U db"])
def test_computed_letters_stay_unknown(script):
    """The expansion may be more options (`-v$x`), or the option itself is computed: not exact."""
    assert not read(script).exact


def test_computed_value_is_still_exact():
    model = read('ssh -p "$port" host')
    assert model.exact
    assert model.option("-p").value is None and syntax.text(model.option("-p").value_node) == b'"$port"'


@pytest.mark.parametrize(
    "script",
    [
        "cat f | grep x",
        "cat f 2>/dev/null | grep x > out",
        "a | b 2>/dev/null | c",
        "a | b 2>/dev/null | c >> log 2>&1",
        "<in a | b",
        "cat <<EOF | b | c > out\nhi\nEOF\n",
        "cat <<EOF | grep x\nhi\nEOF\n",
        "a <<<\"$x\" | b 2>e | c",
        "x=$(a | b > f)",
        "a | { b; c; } > f | d",
        "a | while read l; do echo $l; done > out",
        "mysql db <<EOF | tee log\nLOAD DATA INFILE 'x';\nEOF\n",
    ],
)
def test_applied_redirects_agree_with_pipeline_stages(script):
    root = syntax.parse(script.encode()).root_node
    captured = syntax.captures(Query(syntax.language(), pipeline.QUERY), root)
    built = [pipeline.build(node) for node in pipeline.roots(captured)]
    stages = [stage for found in built if found is not None for stage in found.stages]
    assert stages
    for stage in stages:
        assert syntax.applied_redirects(stage.command) == stage.all_redirects, stage
        if stage.is_simple:
            assert stage.command_model.redirects == tuple(stage.all_redirects)
            assert command.read(stage.command).redirects == stage.command_model.redirects


def test_applied_redirects_outside_pipelines():
    root = syntax.parse(b"dd if=a of=b 2>/dev/null <in\n").root_node
    node = next(n for n in syntax.walk(root) if n.type == "command")
    assert texts(syntax.applied_redirects(node)) == ["2>/dev/null", "<in"]


def test_applied_redirects_of_a_list_belong_to_its_last_command():
    """tree-sitter reads `a > f && b < f` as `(a > f && b) < f`; bash gives `< f` to b alone."""
    root = syntax.parse(b"mysqldump db > f.sql && mysql -h r db < f.sql || echo no 2>e\n").root_node
    first, second, third = [n for n in syntax.walk(root) if n.type == "command"]
    assert texts(syntax.applied_redirects(first)) == ["> f.sql"]
    assert texts(syntax.applied_redirects(second)) == ["< f.sql"]
    assert texts(syntax.applied_redirects(third)) == ["2>e"]



@pytest.mark.parametrize(
    ("script", "expected"),
    [
        # tree-sitter-bash #315 splits these after the second `$`; bash reads one word.
        ("cat $dir/$name.log", ["$dir/$name.log"]),
        ("scp $h:/tmp/$d.gz .", ["$h:/tmp/$d.gz", "."]),
        ('cp "$a"/$b.c $d/$e.f/$g.h x', ['"$a"/$b.c', "$d/$e.f/$g.h", "x"]),
        ("cat ${dir}/${name}.log", ["${dir}/${name}.log"]),
        ("rm $a/$1.c", ["$a/$1.c"]),
    ],
)
def test_a_word_tree_sitter_splits_is_one_operand(script, expected):
    model = read(script)
    assert texts(model.operands) == expected
    word = model.operands[0]
    assert syntax.literal_value(word) is None and not syntax.is_single_word(word)
    kinds = [part.type for part in word.named_children]
    assert kinds.count("simple_expansion") + kinds.count("expansion") + kinds.count("string") >= 2


def test_a_split_redirect_destination_is_one_word():
    root = syntax.parse(b"sort x | cat > $F/$v.gz").root_node
    stage = pipeline.build(root.children[0]).stages[1]
    assert stage.arguments == []
    (redirect,) = stage.all_redirects
    assert syntax.text(syntax.redirect_parts(redirect)[2]) == b"$F/$v.gz"


def test_a_joined_word_keeps_the_scripts_offsets():
    source = b"x=1\ncat $dir/$name.log"
    word = read(source.decode()).operands[0]
    assert source[word.start_byte : word.end_byte] == b"$dir/$name.log"
    names = [syntax.text(node) for node in syntax.walk(word) if node.type == "variable_name"]
    assert names == [b"dir", b"name"]
    assert [source[n.start_byte : n.end_byte] for n in word.named_children] == [b"$dir", b"/", b"$name", b".log"]
