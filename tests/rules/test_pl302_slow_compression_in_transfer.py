"""PL302 slow-compression-in-transfer: a slow compressor feeding the network, and `gzip -1` run for real."""

from __future__ import annotations

import pytest
from harness import (
    assert_fixed_and_same,
    assert_same_behaviour,
    codes,
    fix,
    fix_all,
    lint,
    lint_all,
    run_script,
)

from pipelint.programs import command, compressors
from pipelint.shell import syntax
from pipelint.finding import Applicability


def compression(text: str) -> compressors.Compression | None:
    node = syntax.parse(text.encode()).root_node.named_children[0]
    if node.type == "redirected_statement":
        node = node.child_by_field_name("body")
    return compressors.parse(command.read(node))


@pytest.mark.parametrize(
    ("text", "tool", "level", "to_stdout"),
    [
        ("gzip -c f", "gzip", None, True),
        ("gzip", "gzip", None, True),
        ("gzip -", "gzip", None, True),
        ("gzip f", "gzip", None, False),
        ("gzip -9 -c f", "gzip", 9, True),
        ("gzip -c9 f", "gzip", 9, True),
        ("gzip --best --stdout f", "gzip", 9, True),
        ("gzip --fast < f", "gzip", 1, True),
        ("gzip -S .z -c f", "gzip", None, True),
        ("pigz -p 4 -9", "pigz", 9, True),
        ("xz -T0 -1 -c f", "xz", 1, True),
        ("xz -T 2 -9e f", "xz", 9, False),
        ("zstd -19 -T0 f -o f.zst", "zstd", 19, False),
        ("zstd", "zstd", None, True),
        ("lz4 f f.lz4", "lz4", None, False),
        ("bzip2 -kc f", "bzip2", None, True),
    ],
)
def test_compressor_options(text, tool, level, to_stdout):
    found = compression(text)
    assert (found.tool, found.level, found.to_stdout) == (tool, level, to_stdout)


@pytest.mark.parametrize("text", ["gzip -d f", "gzip -dc f", "gunzip f", "zstd -d f", "xz --decompress", "gzip -t f", "GZIP=-9 gzip", 'gzip "-$level" f', "cat f"])
def test_not_compressors(text):
    assert compression(text) is None


@pytest.mark.parametrize(
    ("text", "option"),
    [
        ("tar czf - dir", "z"),
        ("tar -czf - dir", "z"),
        ("tar -c -j -f - dir", "j"),
        ("tar cJ dir", "J"),
        ("tar --create --xz --file=- dir", "--xz"),
        ("tar -C /srv -zcvf - lib", "z"),
    ],
)
def test_tar_compression(text, option):
    found = compressors.tar_compression(command.read(syntax.parse(text.encode()).root_node.named_children[0]))
    assert found is not None and found[0] == option


@pytest.mark.parametrize(
    "text",
    ["tar czf out.tgz dir", "tar xzf - ", "tar -I pigz -cf - dir", "tar --use-compress-program=pigz -cf - d", "tar cf - dir", "tar -czf \"$out\" d", "tar --zstd -cf - d"],
)
def test_tar_not_compressing_to_stdout(text):
    assert compressors.tar_compression(command.read(syntax.parse(text.encode()).root_node.named_children[0])) is None


@pytest.mark.parametrize(
    "script",
    [
        "gzip -c data.csv | ssh backup 'gunzip -c > data.csv'",
        "gzip < data.csv | ssh backup 'gunzip -c > data.csv'",
        "mysqldump shop | gzip | ssh backup 'gunzip | mysql shop'",
        "gzip -9 -c data.csv | ssh backup 'cat > data.csv.gz'",
        "gzip --best -c data.csv | ssh -p 2222 user@backup 'cat > d.gz'",
        "gzip -c data.csv | pv | ssh backup 'cat > d.gz'",
        "gzip -c data.csv | mbuffer -q | nc -q 1 backup 12345",
        "gzip -c data.csv | ncat backup 12345",
        "gzip -c data.csv | socat - TCP:backup:12345",
        "gzip -c data.csv | curl -T - https://backup.example/upload",
        "gzip -c data.csv | curl --upload-file - https://backup.example/upload",
        "gzip -c data.csv | curl --data-binary @- https://backup.example/upload",
        "bzip2 -c data.csv | ssh backup 'cat > d.bz2'",
        "xz -c data.csv | ssh backup 'cat > d.xz'",
        "xz -T0 -6 -c data.csv | ssh backup 'cat > d.xz'",
        "tar czf - src | ssh backup 'tar xzf -'",
        "tar -cjf - src | nc backup 12345",
        "tar --xz -cf - src | ssh backup 'tar xJf -'",
        "x=$(gzip -c data.csv | ssh backup 'wc -c')",
    ],
)
def test_reports(script):
    assert codes(script, select=("PL302",)) == ["PL302"]


@pytest.mark.parametrize(
    "script",
    [
        # Already fast, or the remedy itself.
        "gzip -1 -c data.csv | ssh backup 'cat > d.gz'",
        "gzip --fast -c data.csv | ssh backup 'cat > d.gz'",
        "gzip -3 -c data.csv | ssh backup 'cat > d.gz'",
        "xz -1 -T0 -c data.csv | ssh backup 'cat > d.xz'",
        "pigz -c data.csv | ssh backup 'cat > d.gz'",
        "pigz -9 -c data.csv | ssh backup 'cat > d.gz'",
        "zstd -19 -c data.csv | ssh backup 'cat > d.zst'",
        "lz4 -c data.csv | ssh backup 'cat > d.lz4'",
        "tar -I 'zstd -T0' -cf - src | ssh backup 'tar -I zstd -xf -'",
        "tar cf - src | ssh backup 'tar xf -'",
        # Not into the network.
        "gzip -c data.csv | wc -c",
        "gzip -c data.csv > data.csv.gz",
        "gzip -c data.csv | tee d.gz | ssh backup 'cat > d.gz'",
        "gzip -c data.csv > d.gz | ssh backup true",
        "gzip -c data.csv | ssh -n backup true",
        "gzip -c data.csv | curl -T d.gz https://backup.example/",
        "gzip -c data.csv | curl https://backup.example/",
        # Decompressing, or a level from the environment.
        "gzip -dc d.gz | ssh backup 'cat > d'",
        "GZIP=-1 gzip -c data.csv | ssh backup 'cat > d.gz'",
        'gzip "-$level" -c data.csv | ssh backup "cat > d.gz"',
        "ssh backup 'cat d.gz' | gzip -dc",
        "case x in\n gzip -c data.csv | ssh backup true\nesac\n",
    ],
)
def test_leaves_alone(script):
    assert "PL302" not in codes(script)


@pytest.mark.parametrize(
    ("script", "expected", "safety"),
    [
        ("gzip -c data.csv | ssh backup 'gunzip -c > d'\n", "gzip -1 -c data.csv | ssh backup 'gunzip -c > d'\n", Applicability.UNSAFE),
        ("gzip -9 -c data.csv | ssh backup 'gunzip -c > d'\n", "gzip -1 -c data.csv | ssh backup 'gunzip -c > d'\n", Applicability.UNSAFE),
        ("gzip -c --best data.csv | nc h 1\n", "gzip -c -1 data.csv | nc h 1\n", Applicability.UNSAFE),
        ("/bin/gzip < data.csv | ssh b true\n", "/bin/gzip -1 < data.csv | ssh b true\n", Applicability.UNSAFE),
        # Advice only (Finding.help): no fix at all.
        ("gzip -c9 data.csv | ssh b true\n", "gzip -c9 data.csv | ssh b true\n", None),
        ("bzip2 -c data.csv | ssh b true\n", "bzip2 -c data.csv | ssh b true\n", None),
        ("xz -c data.csv | ssh b true\n", "xz -c data.csv | ssh b true\n", None),
        ("tar czf - src | ssh b true\n", "tar czf - src | ssh b true\n", None),
    ],
)
def test_fix_and_its_safety(script, expected, safety):
    (finding,) = lint(script, select=("PL302",))
    if safety is None:
        assert finding.fix is None and finding.help
    else:
        assert finding.fix.applicability is safety and finding.help is None
    assert fix(script, unsafe=True, select=("PL302",)).decode() == expected
    assert fix(script, unsafe=False, select=("PL302",)).decode() == script


def test_advice_names_the_remedies():
    (finding,) = lint("tar czf - src | ssh b 'tar xzf -'\n", select=("PL302",))
    assert "tar -I 'gzip -1'" in finding.help and "zstd -1 -T0" in finding.help
    (finding,) = lint("bzip2 -c data.csv | ssh b true\n", select=("PL302",))
    assert "lbzip2" in finding.help
    assert "3.9 s of CPU against 7.0 s" in finding.message


# The receiver decompresses: what arrives is the same bytes (ssh is a stand-in, tests/sandbox/bin/ssh).
ROUND_TRIPS = [
    "gzip -c data.csv | ssh backup 'gunzip -c > data.csv'\n",
    "gzip -9 -c 'my file.txt' | ssh -p 22 user@backup 'gunzip -c > copy.txt'\n",
    "gzip < access.log \\\n  | ssh backup 'gunzip -c | wc -l'\n",
    "n=$(gzip -c words.txt | ssh backup 'gunzip -c | sort | head -1'); echo \"$n\"\n",
    "tar -cf - src | gzip | ssh backup 'gunzip -c | tar -xf -'\n",
]


@pytest.mark.parametrize("script", ROUND_TRIPS)
@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_unsafe_fix_delivers_the_same_data(script, shell, tmp_path):
    path = "script.sh" if shell == "dash" else "script.bash"
    fixed = fix(script, path, unsafe=True, select=("PL302",))
    assert b"gzip -1" in fixed
    assert_same_behaviour(script.encode(), fixed, tmp_path, shell)


def test_why_the_gzip_fix_is_unsafe(tmp_path):
    """A receiver that keeps the compressed stream keeps a different (bigger) file."""
    script = b"gzip -c access.log | ssh backup 'cat > access.log.gz'\n"
    fixed = fix(script, unsafe=True, select=("PL302",))
    before = run_script(script, tmp_path / "a")
    after = run_script(fixed, tmp_path / "b")
    assert before.files["remote-backup/access.log.gz"] != after.files["remote-backup/access.log.gz"]


@pytest.mark.parametrize(
    "script",
    [
        'tar cz data | openssl enc -aes-256-cbc -pass file:key | ssh backup "cat > data.enc"\n',
        "tar cz data | openssl aes-256-cbc -salt -pass file:key 2>/dev/null | ssh backup 'cat > d'\n",
        "gzip -c dump.sql | openssl enc -chacha20 -a -pass env:P | nc backup 9000\n",
        "gzip -c dump.sql | gpg -c --batch --passphrase-file key | ssh backup 'cat > d.gpg'\n",
        "gzip -c dump.sql | gpg -e -r bob | pv -q | ssh backup 'cat > d.gpg'\n",
        "gzip -c dump.sql | aespipe -K key.gpg | ssh backup 'cat > d.aes'\n",
        "gzip -c dump.sql | age -r age1example | ssh backup 'cat > d.age'\n",
        "gzip -c dump.sql | mbuffer -m 1G | openssl enc -aes-128-ctr -pass env:P | ssh backup 'cat > d'\n",
        "gzip -c dump.sql | buffer | ssh backup 'cat > d.gz'\n",
    ],
)
def test_sees_through_buffers_and_encryption(script):
    """Encrypting the stream leaves the compressor setting the pace of the transfer (issue 10)."""
    assert "PL302" in codes(script, select=("PL302",))


@pytest.mark.parametrize(
    "script",
    [
        # Not a pass-through: decrypts, reads or writes a file, or is no cipher.
        "gzip -c f | openssl enc -d -aes-256-cbc | ssh h 'cat > x'\n",
        "gzip -c f | openssl enc -aes-256-cbc -out x.enc | ssh h 'cat > x'\n",
        "gzip -c f | openssl enc -aes-256-cbc -in other | ssh h 'cat > x'\n",
        "gzip -c f | openssl dgst | ssh h 'cat > x'\n",
        "gzip -c f | gpg --symmetric -o out.gpg | ssh h 'cat > x'\n",
        "gzip -c f | gpg -c other.txt | ssh h 'cat > x'\n",
        "gzip -c f | age -d -i key | ssh h 'cat > x'\n",
        "gzip -c f | openssl enc -aes-256-cbc > x.enc | ssh h 'cat > x'\n",
        "gzip -c f | sudo openssl enc -aes-256-cbc | ssh h 'cat > x'\n",
        # A level in a variable: the author chose it, maybe per run.
        'gzip -$LEVEL -c f | ssh h "cat > f.gz"\n',
        'gzip -c"$PIPE_COMPRESSION" f | ssh h "cat > f.gz"\n',
        'gzip "-$LEVEL" -c f | openssl enc -aes-256-cbc | ssh h x\n',
        'xz -"$L" -c f | ssh h x\n',
        'tar -I "$COMPRESSOR" -cf - d | ssh h x\n',
    ],
)
def test_leaves_alone_other_stages_and_computed_levels(script):
    assert "PL302" not in codes(script, select=("PL302",))


# The remote side of the ssh hop: what the remote command writes on stdout crosses the link.
@pytest.mark.parametrize(
    ("script", "points_at"),
    [
        ("ssh h 'tar czf - src' | tar xzf -\n", "tar czf - src"),
        ('ssh h "mysqldump db | gzip" > f.gz\n', "gzip"),
        ("ssh -C h 'gzip -c data.csv' > d.gz\n", "gzip -c data.csv"),
        ("sshpass -p x ssh h 'xz -c data.csv' > d.xz\n", "xz -c data.csv"),
        ("ssh h 'cd /srv && tar cjf - data' > d.tbz\n", "tar cjf - data"),
        ("ssh h 'if true; then gzip -c data.csv; fi' > d.gz\n", "gzip -c data.csv"),
        ("ssh h \"sh -c 'gzip -c data.csv'\" > d.gz\n", "gzip -c data.csv"),  # through a nested sh -c
        ("ssh h <<'EOF' > d.gz\ncd /srv\ngzip -c data.csv\nEOF\n", "gzip -c data.csv"),  # a here-document script
    ],
)
def test_reports_a_slow_compressor_on_the_remote_side(script, points_at):
    (finding,) = [f for f in lint_all(script) if f.code == "PL302"]
    assert script.encode()[finding.start : finding.end] == points_at.encode()
    assert "straight into `ssh`" in finding.message


@pytest.mark.parametrize(
    "script",
    [
        "ssh h 'gzip -c data.csv > /tmp/d.gz'\n",  # stays on the remote machine
        "ssh h 'gzip -c data.csv | wc -c'\n",  # a later remote stage reads it
        "ssh h 'x=$(gzip -c data.csv | wc -c); echo $x'\n",
        "ssh h 'gzip -1 -c data.csv' > d.gz\n",
        "ssh h 'zstd -c data.csv' > d.zst\n",
        "ssh h 'f() { gzip -c data.csv; }; f > /tmp/x'\n",  # a function's output goes where its calls' does
        "sh -c 'gzip -c data.csv' > d.gz\n",  # no network: sh -c runs here
        "docker exec web sh -c 'gzip -c data.csv' > d.gz\n",
    ],
)
def test_leaves_alone_on_the_remote_side(script):
    assert "PL302" not in [f.code for f in lint_all(script)]


def test_remote_gzip_fix_delivers_the_same_data(tmp_path):
    setup = "mkdir -p remote-h && cp data.csv remote-h/\n"
    script = setup + "ssh h \"cat data.csv | gzip\" | gunzip -c > copy.csv\nssh h 'gzip -c data.csv' | gunzip | wc -l\n"
    # PL001's fix adds -n (a file's time would go into the header), PL302's the level.
    expected = setup + "ssh h \"gzip -1 -n < data.csv\" | gunzip -c > copy.csv\nssh h 'gzip -1 -c data.csv' | gunzip | wc -l\n"
    assert b"gzip -1" not in fix_all(script)  # the level fix is unsafe (the useless cat's is not)
    outcome = assert_fixed_and_same(script, expected, tmp_path, "dash", unsafe=True)
    assert "copy.csv" in outcome.files and outcome.stdout.strip() != b"0"
