"""PL303 double-compression: compressed data through `ssh -C`, and the fix run for real."""

from __future__ import annotations

import pytest
from harness import assert_lint, assert_same_behaviour, codes, fix, lint

from pipelint.programs import command
from pipelint.shell import syntax
from pipelint.finding import Applicability
from pipelint.programs.remote_commands import host_key, parse_ssh


def ssh(text: str):
    return parse_ssh(command.read(syntax.parse(text.encode()).root_node.named_children[0]))


@pytest.mark.parametrize(
    ("text", "host", "compression"),
    [
        ("ssh -C host cmd", "host", ["C"]),
        ("ssh -vC -p 22 user@host cmd -C", "host", ["C"]),
        ("ssh -Cp 22 host", "host", ["C"]),
        ("ssh -p22 host cmd", "host", []),
        ("ssh -c aes128-ctr host", "host", []),  # a cipher, not compression
        ("ssh -o Compression=yes host", "host", ["o"]),
        ("ssh -oCompression=yes host", "host", ["o"]),
        ("ssh -o 'compression yes' host", "host", ["o"]),
        ("ssh -o Compression=no host", "host", []),
        ("ssh -i ~/.ssh/key -l root host", "host", []),
        ("ssh -- host -C", "host", []),
    ],
)
def test_ssh_options(text, host, compression):
    parsed = ssh(text)
    assert host_key(syntax.text(parsed.host)) == host
    assert [o.name.lstrip("-") for o in parsed.compression_options()] == compression


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ("gzip -c data.csv | ssh -C backup 'gunzip -c > d'\n", "gzip -c data.csv | ssh backup 'gunzip -c > d'\n"),
        ("gzip -1 < data.csv | ssh -vC backup 'cat > d.gz'\n", "gzip -1 < data.csv | ssh -v backup 'cat > d.gz'\n"),
        ("gzip -1 < data.csv | ssh -Cv backup true\n", "gzip -1 < data.csv | ssh -v backup true\n"),
        ("gzip -1 < data.csv | ssh -Cp 22 backup true\n", "gzip -1 < data.csv | ssh -p 22 backup true\n"),
        ("zstd -c data.csv | ssh -o Compression=yes backup true\n", "zstd -c data.csv | ssh backup true\n"),
        ("zstd -c data.csv | ssh -p 22 -oCompression=yes backup true\n", "zstd -c data.csv | ssh -p 22 backup true\n"),
        ("zstd -c data.csv | ssh -C -o Compression=yes backup true\n", "zstd -c data.csv | ssh backup true\n"),
        ("tar czf - src | pv -q | ssh -C backup 'tar xzf -'\n", "tar czf - src | pv -q | ssh backup 'tar xzf -'\n"),
        ("tar --zstd -cf - src | ssh -C backup true\n", "tar --zstd -cf - src | ssh backup true\n"),
        ("cat backup.tar.gz | ssh -C backup 'cat > b.tgz'\n", "cat backup.tar.gz | ssh backup 'cat > b.tgz'\n"),
        ("dd if=img.xz bs=1M | ssh -C backup true\n", "dd if=img.xz bs=1M | ssh backup true\n"),
        ("ssh -C backup 'cat > b.tgz' < backup.tar.gz\n", "ssh backup 'cat > b.tgz' < backup.tar.gz\n"),
        ("x=$(xz -c data.csv | ssh -C \\\n  backup 'wc -c')\n", "x=$(xz -c data.csv | ssh \\\n  backup 'wc -c')\n"),
    ],
)
def test_fix(script, expected):
    (finding,) = lint(script, select=("PL303",))
    assert finding.fix.applicability is Applicability.SAFE
    assert fix(script, select=("PL303",)).decode() == expected


@pytest.mark.parametrize(
    "script",
    [
        # Plain data: ssh's compression is useful.
        "mysqldump shop | ssh -C backup 'mysql shop'",
        "tar cf - src | ssh -C backup 'tar xf -'",
        "cat access.log | ssh -C backup 'cat > a.log'",
        "ssh -C backup 'cat > a.log' < access.log",
        # Compressed data without ssh compression.
        "gzip -c data.csv | ssh backup true",
        "gzip -c data.csv | ssh -c aes128-ctr backup true",
        "gzip -c data.csv | ssh -o Compression=no backup true",
        # The compressed data does not reach ssh's stdin.
        "gzip -c data.csv > d.gz | ssh -C backup true",
        "gzip -dc d.gz | ssh -C backup true",
        "gzip -c data.csv | sort | ssh -C backup true",
        "gzip -c data.csv | ssh -C backup true < access.log",
        'cat d.gz "$other" | ssh -C backup true',
        "ssh -C backup 'cat d.gz' | gunzip",
        "gzip -c data.csv | ssh -CC backup true",
        "case x in\n gzip -c data.csv | ssh -C backup true\nesac\n",
    ],
)
def test_leaves_alone(script):
    assert "PL303" not in codes(script)


def test_message():
    (finding,) = lint("gzip -c data.csv | ssh -C backup true\n", select=("PL303",))
    assert finding.message.startswith("`ssh -C` compresses the output of `gzip`, data that is already compressed")


# ssh is tests/sandbox/bin/ssh: the remote side is a folder; -C changes nothing there.
TRICKY = [
    "gzip -c data.csv | ssh -C backup 'gunzip -c > data.csv'\n",
    "gzip -c 'my file.txt' | ssh -vC -p 2222 user@backup 'cat > \"my file.txt.gz\"'\n",
    "tar -czf - src | ssh -o Compression=yes backup 'tar -xzf - && ls src'\n",
    'n=$(gzip -c access.log | ssh -C backup "gunzip -c | wc -l"); echo "$n"\n',
    "gzip -c words.txt \\\n  | ssh -C \\\n    backup 'gunzip -c | sort'\n",
    "ssh -C backup 'cat > b.tar' < backup.tar\n",
    "gzip -c data.csv > d.gz\nssh -C backup 'cat > d.gz' < d.gz && echo sent\n",
]


@pytest.mark.parametrize("script", TRICKY)
@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_fix_keeps_behaviour(script, shell, tmp_path):
    path = "script.sh" if shell == "dash" else "script.bash"
    fixed = fix(script, path, select=("PL303",))
    if "b.tar'" in script:
        assert fixed == script.encode()  # backup.tar is not compressed: left alone
        return
    assert b"-C" not in fixed and b"Compression" not in fixed
    assert_same_behaviour(script.encode(), fixed, tmp_path, shell)


def test_tar_compressing_through_a_cluster_with_i():
    assert "PL303" in codes("tar -cI zstd -f - d | ssh -C h true\n")


def test_ssh_at_the_end_of_a_pipeline_reading_a_compressed_file():
    # The redirect after the last stage wraps the whole pipeline in tree-sitter; it is ssh's.
    assert "PL303" in codes("make | ssh -C h 'cat > b.tgz' < backup.tgz\n")


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        # Through wrappers that run the copy as the same user.
        ("nice scp -C db.sql.gz host:\n", "nice scp db.sql.gz host:\n"),
        ("nice -n 19 rsync -az a.tgz host:\n", "nice -n 19 rsync -a a.tgz host:\n"),
        # A variable set once to a compressed name; a glob whose every match is one.
        ('F=/b/db.sql.gz\nrsync -avz "$F" host:/srv/\n', 'F=/b/db.sql.gz\nrsync -av "$F" host:/srv/\n'),
        ("scp -C dir/*.gz host:\n", "scp dir/*.gz host:\n"),
        ('rsync -z "$B"/db-*.sql.zst host:\n', 'rsync "$B"/db-*.sql.zst host:\n'),
        # A folder the script makes and writes only compressed files into.
        (
            'B=/backup/$(date +%F)\nmkdir -p "$B"\nmysqldump db | gzip > "$B/db.sql.gz"\ntar czf "$B/www.tgz" /var/www\n'
            'rsync -avz "$B/" host:/srv/\n',
            'B=/backup/$(date +%F)\nmkdir -p "$B"\nmysqldump db | gzip > "$B/db.sql.gz"\ntar czf "$B/www.tgz" /var/www\n'
            'rsync -av "$B/" host:/srv/\n',
        ),
        (
            'mkdir -p $B\nfor db in $dbs; do\n  mysqldump $db | gzip > $B/$db.sql.gz\ndone\nrsync -az $B host:/srv/\n',
            'mkdir -p $B\nfor db in $dbs; do\n  mysqldump $db | gzip > $B/$db.sql.gz\ndone\nrsync -a $B host:/srv/\n',
        ),
    ],
)
def test_more_copies_of_compressed_files(script, expected):
    (finding,) = assert_lint(script, "PL303")
    assert finding.fix.applicability is Applicability.SAFE
    assert fix(script, select=("PL303",)).decode() == expected


@pytest.mark.parametrize(
    "script",
    [
        # The folder holds something else too, or the script did not make it, or writes nothing there.
        'mkdir -p "$B"\nmysqldump db | gzip > "$B/db.sql.gz"\ncp /etc/my.cnf "$B/"\nrsync -az "$B/" host:\n',
        'mysqldump db | gzip > "$B/db.sql.gz"\nrsync -az "$B/" host:\n',
        'mkdir -p "$B"\nrsync -az "$B/" host:\n',
        'mkdir -p "$B"\nmysqldump db > "$B/db.sql"\ngzip "$B/db.sql"\nrsync -az "$B/" host:\n',
        # Globs that may match anything; a variable set twice or to a plain name.
        "scp -C dir/*.gz* host:\n",
        "rsync -z dir/* host:\n",
        'F=/b/db.sql\nrsync -z "$F" host:\n',
        'F=/b/db.sql.gz\nF=/b/db.sql\nrsync -z "$F" host:\n',
        "sudo nice scp -C a.gz host:\n",
    ],
)
def test_more_copies_left_alone(script):
    assert "PL303" not in codes(script)


@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_ssh_options_after_the_host(shell, tmp_path):
    """OpenSSH reads options after the host (`ssh h -C cmd`); the fix removes -C there too."""
    script = "gzip -c data.csv | ssh backup -C 'gunzip -c > data.csv'\n"
    path = "script.sh" if shell == "dash" else "script.bash"
    fixed = fix(script, path, select=("PL303",))
    assert fixed == b"gzip -c data.csv | ssh backup 'gunzip -c > data.csv'\n"
    assert_same_behaviour(script.encode(), fixed, tmp_path, shell)
    assert "PL303" not in codes("gzip -c data.csv | ssh backup -- -C x\n")
    assert "PL303" not in codes("gzip -c data.csv | ssh backup gzip -C x\n")


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ("scp -C backup.tar.gz host:/srv/\n", "scp backup.tar.gz host:/srv/\n"),
        ("scp -o Compression=yes a.gz b.xz host:\n", "scp a.gz b.xz host:\n"),
        ("scp -Cp db.sql.gz user@host:\n", "scp -p db.sql.gz user@host:\n"),
        ("scp -P 2222 -C db.sql.zst host:\n", "scp -P 2222 db.sql.zst host:\n"),
        ("rsync -avz db.sql.gz host:/srv/\n", "rsync -av db.sql.gz host:/srv/\n"),
        ("rsync -z a.gz host:\n", "rsync a.gz host:\n"),
        ("rsync --compress --partial a.zst b.tgz host:/srv/\n", "rsync --partial a.zst b.tgz host:/srv/\n"),
        # rsync's built-in skip list has no effect in the rsync of Debian 12 (3.5.0): reported.
        ("rsync -az backup.tar.xz host:\n", "rsync -a backup.tar.xz host:\n"),
        ("rsync -z --skip-compress=jpg a.gz host:\n", "rsync --skip-compress=jpg a.gz host:\n"),
    ],
)
def test_copies_of_compressed_files(script, expected):
    (finding,) = assert_lint(script, "PL303")
    assert finding.fix.applicability is Applicability.SAFE
    assert "data that is already compressed" in finding.message
    assert fix(script, select=("PL303",)).decode() == expected


@pytest.mark.parametrize(
    "script",
    [
        "scp -C db.sql host:\n",  # plain data: compression helps
        "scp -C a.gz b.sql host:\n",  # one plain file among them
        'scp -C "$f" host:\n',
        "scp -CC a.gz host:\n",
        "scp -C host:a.gz .\n",  # a download: not read as an upload
        "rsync -avz dir/ host:/srv/\n",
        "rsync -avz host:a.gz .\n",
        "rsync -z --skip-compress=gz a.gz host:\n",  # said on purpose (and works with rsync < 3.2)
        "rsync -z --skip-compress gz/xz a.xz host:\n",
        "rsync -zz a.gz host:\n",
        "rsync -z --compress-level=1 a.gz host:\n",
        "rsync -z --compress-choice=zstd a.gz host:\n",
        "scp() { command scp -C \"$@\"; }\nscp -C a.gz host:\n",
        ". ./lib.sh\nscp -C a.gz host:\n",
        "sudo scp -C a.gz host:\n",
    ],
)
def test_copies_left_alone(script):
    assert "PL303" not in codes(script)


@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_scp_fix_keeps_behaviour(shell, tmp_path):
    script = "gzip -c data.csv > d.gz\nscp -C d.gz backup:in/ && echo sent\nscp -Cp d.gz backup:\n"
    path = "script.sh" if shell == "dash" else "script.bash"
    fixed = fix(script, path, select=("PL303",))
    assert fixed == script.replace(" -C ", " ").replace("-Cp", "-p").encode()
    assert_same_behaviour(script.encode(), fixed, tmp_path, shell)


@pytest.mark.parametrize(
    "script",
    [
        "gzip -c data.csv > d.gz\nnice scp -C d.gz backup:in/\n",
        "gzip -c data.csv > d.gz\nF=d.gz\nscp -C \"$F\" backup:\n",
        "mkdir -p out\ngzip -c data.csv > out/a.gz\ngzip -c words.txt > out/b.gz\nscp -C out/*.gz backup:\n",
    ],
)
@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_new_copy_fixes_keep_behaviour(script, shell, tmp_path):
    """scp is the sandbox's stand-in (a folder per host): the same files land with or without -C."""
    path = "script.sh" if shell == "dash" else "script.bash"
    fixed = fix(script, path, select=("PL303",))
    assert fixed == script.replace(" -C ", " ").encode()
    assert_same_behaviour(script.encode(), fixed, tmp_path, shell, path=path)


# Issue 25 class 12: a function or alias named ssh is not the program, whatever it does with -C.
SSH_FUNCTION = 'ssh() { echo "ssh got: $*"; command cat > /dev/null; }\n'


@pytest.mark.parametrize(
    "definition",
    [SSH_FUNCTION, "function ssh { echo \"ssh got: $*\"; }\n", "shopt -s expand_aliases\nalias ssh='echo ssh got:'\n",
     "printf '%s\\n' 'ssh() { echo \"$*\"; }' > lib.sh\n. ./lib.sh\n"],
)  # fmt: skip
@pytest.mark.parametrize("use", ["gzip -c data.csv | ssh -C backup 'cat > d.gz'\n", "ssh -C backup 'cat > d.gz' < d.gz\n"])
def test_an_ssh_of_the_script_is_left_alone(definition, use):
    assert "PL303" not in codes("gzip -c data.csv > d.gz\n" + definition + use)
    assert "PL303" not in codes("gzip -c data.csv > d.gz\n" + use + definition)  # defined after the use: still


@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_removing_c_from_the_function_changes_what_it_does(shell, tmp_path):
    """The other side, shown: the function sees its arguments, so taking -C out is no safe fix there."""
    from harness import run_script

    use = "gzip -c data.csv | ssh -C backup 'cat > d.gz'\n"
    with_c = run_script((SSH_FUNCTION + use).encode(), tmp_path / "a", shell)
    without = run_script((SSH_FUNCTION + use.replace(" -C", "")).encode(), tmp_path / "b", shell)
    assert with_c.stdout == b"ssh got: -C backup cat > d.gz\n" and with_c.stdout != without.stdout
    assert "PL303" in codes(use)  # the program: reported, and its fix is safe (test_fix_keeps_behaviour)
