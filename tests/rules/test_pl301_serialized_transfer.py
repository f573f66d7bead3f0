"""PL301 serialized-transfer: compress, copy, decompress in three steps; the one-step advice run for real."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from harness import codes, lint, run_script


DOC = Path(__file__).parent.parent.parent / "rules" / "PL301-serialized-transfer.md"


def advice(script: str) -> str:
    (finding,) = lint(script, select=("PL301",))
    assert finding.fix is None  # advice, never applied
    match = re.fullmatch(r"Compress and stream in one step: `(.*)`", finding.help)
    assert match, finding.help
    return match.group(1)


@pytest.mark.parametrize(
    ("script", "one_step"),
    [
        # Seed 003's own example.
        (
            "gzip -c /backup/mydb/mytable.MYD > mytable.MYD.gz\n"
            "scp mytable.MYD.gz root@server2:/var/lib/mysql/mydb/\n"
            'ssh root@server2 "gunzip /var/lib/mysql/mydb/mytable.MYD.gz"\n',
            "gzip -1 -c /backup/mydb/mytable.MYD | ssh root@server2 'gunzip -c > /var/lib/mysql/mydb/mytable.MYD'",
        ),
        (
            "gzip data.csv && scp data.csv.gz backup:in/ && ssh backup 'gunzip in/data.csv.gz'\n",
            "gzip -1 -c data.csv | ssh backup 'gunzip -c > in/data.csv'",
        ),
        (
            "gzip -9 < data.csv > /tmp/d.gz\nscp -P 2222 /tmp/d.gz me@backup:/srv/\nssh -p 2222 me@backup gunzip -c /srv/d.gz '>' /srv/data.csv\n",
            "gzip -1 -c data.csv | ssh -p 2222 me@backup 'gunzip -c > /srv/data.csv'",
        ),
        (
            "xz -T0 big.img\nrsync -av big.img.xz backup:/data/\nssh backup 'cd /data; unxz /data/big.img.xz'\n",
            "xz -T0 -c big.img | ssh backup 'unxz -c > /data/big.img'",
        ),
        (
            "zstd -q data.csv -o data.zst\nsftp backup <<EOF\nput data.zst in/\nEOF\nssh backup 'zstd -d in/data.zst -o in/data.csv'\n",
            "zstd -c data.csv | ssh backup 'zstd -dc > in/data.csv'",
        ),
        (
            "bzip2 -k dump.sql\nscp dump.sql.bz2 backup:\nssh backup 'bunzip2 -c dump.sql.bz2 > restore.sql'\n",
            "bzip2 -c dump.sql | ssh backup 'bunzip2 -c > restore.sql'",
        ),
        (
            "lz4 big.img\nscp big.img.lz4 backup:\nssh backup lz4 -d big.img.lz4 big.img\n",
            "lz4 -c big.img | ssh backup 'lz4 -dc > big.img'",
        ),
        (
            'ship() {\n  gzip -c "$1" > "$1.gz"\n  scp "$1.gz" backup:/tmp/\n  ssh backup gunzip "/tmp/$1.gz"\n}\n',
            'gzip -1 -c "$1" | ssh backup "gunzip -c > /tmp/$1"',
        ),
        (
            "if true; then\n  gzip -c 'my file.txt' > my.gz\n  scp my.gz backup:\n  ssh backup 'gunzip -c my.gz > \"my file.txt\"'\nfi\n",
            "gzip -1 -c 'my file.txt' | ssh backup \"gunzip -c > 'my file.txt'\"",
        ),
        (
            "gzip -c a > a.gz\nscp a.gz backup:\nssh backup 'gunzip -c a.gz > $HOME/a'\n",
            "gzip -1 -c a | ssh backup 'gunzip -c > $HOME/a'",
        ),
    ],
)
def test_reports_with_the_one_step_pipeline(script, one_step):
    assert advice(script) == one_step


def test_message_points_at_the_other_two_steps():
    script = "gzip -c a > a.gz\necho copying\nscp a.gz backup:\necho unpacking\nssh backup 'gunzip a.gz'\n"
    (finding,) = lint(script, select=("PL301",))
    assert "copied by scp (line 3) and decompressed by ssh (line 5)" in finding.message
    assert "60 s" in finding.message and "44 s" in finding.message
    assert script.encode()[finding.start : finding.end] == b"gzip -c a > a.gz"


@pytest.mark.parametrize(
    "script",
    [
        # Already one step.
        "gzip -1 -c data.csv | ssh backup 'gunzip -c > data.csv'",
        # Another host decompresses, or another file, or nothing.
        "gzip -c a > a.gz\nscp a.gz backup:\nssh other 'gunzip a.gz'",
        "gzip -c a > a.gz\nscp b.gz backup:\nssh backup 'gunzip b.gz'",
        "gzip -c a > a.gz\nscp a.gz backup:\nssh backup 'ls -l a.gz'",
        # Wrong order, or the format does not match.
        "gzip -c a > a.gz\nssh backup 'gunzip a.gz'\nscp a.gz backup:",
        "gzip -c a > a.gz\nscp a.gz backup:\nssh backup 'unxz a.gz'",
        # Steps in different blocks.
        "gzip -c a > a.gz\nsend() { scp a.gz backup:; }\nsend\nssh backup 'gunzip a.gz'",
        # An archive unpacked with options the stream would have to carry over; one kept here too.
        "tar czf a.tgz d\nscp a.tgz h:\nssh h 'tar xzf a.tgz --strip-components=1'",
        "tar czf a.tgz d\nscp a.tgz h:\nmv a.tgz old/\n",
        "tar czf - d > a.tgz\nscp b.tgz h:\n",
        'tar czf "$F" d\nscp a.tgz h:\n',
        # Compressing with options PL301 cannot follow.
        "gzip -r logs\nscp logs.gz backup:\nssh backup 'gunzip logs.gz'",
        "gzip -S .z a\nscp a.z backup:\nssh backup 'gunzip -S .z a.z'",
        "gzip -c a >> a.gz\nscp a.gz backup:\nssh backup 'gunzip a.gz'",
        # Downloads and daemons.
        "gzip -c a > a.gz\nscp backup:a.gz .\nssh backup 'gunzip a.gz'",
        "gzip -c a > a.gz\nrsync a.gz backup::module/\nssh backup 'gunzip a.gz'",
        "case x in\n gzip -c a > a.gz; scp a.gz backup:; ssh backup 'gunzip a.gz'\nesac\n",
    ],
)
def test_leaves_alone(script):
    assert "PL301" not in codes(script)


def _run_steps_and_advice(script: str, shell: str, tmp_path):
    """The script's steps, then the one-step advice, each in a fresh sandbox; both must succeed."""
    before = run_script(script.encode(), tmp_path / "before", shell)
    after = run_script(advice(script).encode() + b"\n", tmp_path / "after", shell)
    assert after.status == before.status == 0
    return before, after


def _remote_files(outcome) -> dict[str, str]:
    return {name: digest for name, digest in outcome.files.items() if name.startswith("remote-")}


@pytest.mark.parametrize(
    "script",
    [
        "gzip -c data.csv > data.csv.gz\nscp data.csv.gz backup:\nssh backup 'gunzip data.csv.gz'\n",
        "gzip -k access.log && scp -q access.log.gz user@backup: && ssh backup gunzip access.log.gz\n",
        "xz -c words.txt > w.xz\nscp w.xz backup:\nssh backup 'unxz -c w.xz > words.txt'\n",
        "zstd -q 'my file.txt' -o my.zst\nscp my.zst backup:\nssh backup 'zstd -q -d my.zst -o copy.txt'\n",
        "bzip2 -k latin.txt\nscp latin.txt.bz2 backup:\nssh backup bunzip2 latin.txt.bz2\n",
    ],
)
@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_one_step_advice_delivers_the_same_file(script, shell, tmp_path):
    """scp and ssh are stand-ins (tests/sandbox/bin): each host is a folder in the sandbox."""
    before, after = _run_steps_and_advice(script, shell, tmp_path)
    arrived = {k: v for k, v in _remote_files(before).items() if not k.endswith((".gz", ".xz", ".zst", ".bz2"))}
    assert arrived and _remote_files(after) == arrived


def test_documented_example_and_use_instead_deliver_the_same_file(tmp_path):
    text = DOC.read_text()
    example = text.split("## Example\n```bash\n")[1].split("```")[0]
    instead = text.split("## Use instead\n```bash\n")[1].split("```")[0]
    assert advice(example) == instead.strip()
    before = run_script(example.encode(), tmp_path / "before")
    after = run_script(instead.encode(), tmp_path / "after")
    assert _remote_files(after) == {"remote-backup/data.csv": before.files["remote-backup/data.csv"]}


@pytest.mark.parametrize(
    ("script", "one_step"),
    [
        # Two steps: compressed here, copied, nothing decompresses it (issue 10).
        ("gzip -c db.sql > db.gz; scp db.gz host:\n", "gzip -1 -c db.sql | ssh host 'cat > db.gz'"),
        ("gzip -c a > a.gz\nscp a.gz backup:", "gzip -1 -c a | ssh backup 'cat > a.gz'"),
        ("gzip -c db.sql > db.gz\nscp -P 2222 -i key db.gz me@host:/srv/\n", "gzip -1 -c db.sql | ssh -p 2222 -i key me@host 'cat > /srv/db.gz'"),
        ("gzip db.sql && rsync -av db.sql.gz host:/srv/db.sql.gz\n", "gzip -1 -c db.sql | ssh host 'cat > /srv/db.sql.gz'"),
        ("gzip -c db.sql > db.gz; scp db.gz host:\nrm -f db.gz\n", "gzip -1 -c db.sql | ssh host 'cat > db.gz'"),
        ('gzip -c "$f" > "$f.gz"\nscp "$f.gz" host:/in/\n', 'gzip -1 -c "$f" | ssh host "cat > /in/$f.gz"'),
        # Wrapped copies: the wrapper runs ssh too.
        ("gzip -c db.sql > db.gz\nsshpass -f pw scp db.gz host:\n", "gzip -1 -c db.sql | sshpass -f pw ssh host 'cat > db.gz'"),
        ("gzip -c db.sql > db.gz\nnice -n 19 scp db.gz host:\n", "gzip -1 -c db.sql | nice -n 19 ssh host 'cat > db.gz'"),
        ("gzip -c f > f.gz\nscp f.gz backup:\nsshpass -p x ssh -p 22 backup 'gunzip f.gz'\n", "gzip -1 -c f | sshpass -p x ssh -p 22 backup 'gunzip -c > f'"),
        # Pulls: compressed into a file there, copied here after.
        ("ssh h 'mysqldump db | gzip > /tmp/x.gz'; scp h:/tmp/x.gz .\n", "ssh h 'mysqldump db | gzip' > x.gz"),
        ("ssh -p 22 root@h 'cd /tmp && mysqldump db | gzip -1 > x.gz'\nscp root@h:x.gz backups/\n", "ssh -p 22 root@h 'cd /tmp && mysqldump db | gzip -1' > backups/x.gz"),
        ("ssh h 'pg_dump app | xz -T0 > /tmp/app.xz'\nrsync -av h:/tmp/app.xz app.sql.xz\n", "ssh h 'pg_dump app | xz -T0' > app.sql.xz"),
        ('sshpass -p pw ssh h "mysqldump $db | gzip > /tmp/$db.gz"\nsshpass -p pw scp "h:/tmp/$db.gz" out.gz\n', 'sshpass -p pw ssh h "mysqldump $db | gzip" > out.gz'),
    ],
)
def test_two_steps_and_pulls(script, one_step):
    assert advice(script) == one_step


@pytest.mark.parametrize(
    ("script", "one_step"),
    [
        # A compressor fed by a pipe into a file, then copied (and unpacked).
        ("mysqldump db | gzip > /b/db.sql.gz\nscp /b/db.sql.gz h:/d/\n", "mysqldump db | gzip -1 -c | ssh h 'cat > /d/db.sql.gz'"),
        (
            "mysqldump db | gzip > /b/db.sql.gz\nscp /b/db.sql.gz h:/d/\nssh h 'gunzip /d/db.sql.gz'\n",
            "mysqldump db | gzip -1 -c | ssh h 'gunzip -c > /d/db.sql'",
        ),
        # Remote commands in a here-document, then the copy back.
        ("ssh -T h <<E\ncd /tmp\nmysqldump db | gzip > /tmp/x.gz\nE\nscp h:/tmp/x.gz .\n", "ssh -T h 'cd /tmp; mysqldump db | gzip' > x.gz"),
        ("ssh -T h <<'E'\nmysqldump $DB | gzip > /tmp/x.gz\nE\nscp h:/tmp/x.gz .\n", "ssh -T h 'mysqldump $DB | gzip' > x.gz"),
        ('ssh -T h <<E\nmysqldump $DB | gzip > /tmp/x.gz\nE\nscp h:/tmp/x.gz .\n', 'ssh -T h "mysqldump $DB | gzip" > x.gz'),
        # Braces, and words tree-sitter-bash splits (#315).
        ('ssh h "mysqldump db | gzip > ${F}"\nscp h:${F} .\n', 'ssh h "mysqldump db | gzip" > "${F##*/}"'),
        ('ssh $h "mysqldump db | gzip > /tmp/$d.gz"\nscp $h:/tmp/$d.gz /b/\n', 'ssh $h "mysqldump db | gzip" > /b/$d.gz'),
    ],
)
def test_more_shapes(script, one_step):
    assert advice(script) == one_step


@pytest.mark.parametrize(
    ("script", "one_step"),
    [
        ("tar czf src.tgz src\nscp src.tgz backup:\nssh backup 'tar xzf src.tgz'\n", "tar -c src | gzip -1 -c | ssh backup 'tar -xzf -'"),
        (
            "tar czf /tmp/src.tgz -C /var www\nscp /tmp/src.tgz backup:/b/\nssh backup 'tar -xzf /b/src.tgz -C /srv'\n",
            "tar -c -C /var www | gzip -1 -c | ssh backup 'tar -xzf - -C /srv'",
        ),
        ("tar --xz -cf a.txz d\nscp a.txz h:\nssh h 'tar -xJf a.txz -C /x'\n", "tar -c d | xz -T0 -c | ssh h 'tar --xz -xf - -C /x'"),
    ],
)
def test_archive_made_copied_and_unpacked(script, one_step):
    (finding,) = lint(script, select=("PL301",))
    assert "archived and compressed here, copied by" in finding.message and "unpacked by ssh (line 3)" in finding.message
    assert finding.help == f"Archive, compress and stream in one step: `{one_step}`"


def test_archive_made_and_copied():
    assert advice("tar -cjvf a.tbz d1 d2\nrsync -av a.tbz h:/x/\n") == "tar -c d1 d2 | bzip2 -c | ssh h 'cat > /x/a.tbz'"


@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_archive_stream_unpacks_the_same_files(shell, tmp_path):
    script = "tar czf src.tgz src\nscp src.tgz backup:\nssh backup 'tar xzf src.tgz'\n"
    (finding,) = lint(script, select=("PL301",))
    stream = re.fullmatch(r"Archive, compress and stream in one step: `(.*)`", finding.help).group(1)
    before = run_script(script.encode(), tmp_path / "before", shell)
    after = run_script(stream.encode() + b"\n", tmp_path / "after", shell)
    assert after.status == before.status == 0
    unpacked = {k: v for k, v in _remote_files(before).items() if not k.endswith(".tgz")}
    assert any(name.startswith("remote-backup/src/") for name in unpacked)
    assert _remote_files(after) == unpacked


@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_piped_compressor_advice_delivers_the_same_data(shell, tmp_path):
    import zlib

    before, after = _run_steps_and_advice("sort words.txt | gzip > w.gz\nscp w.gz backup:\n", shell, tmp_path)
    name = "remote-backup/w.gz"
    assert name in _remote_files(before) and name in _remote_files(after)
    assert zlib.decompress((tmp_path / "after" / name).read_bytes(), 31) == zlib.decompress((tmp_path / "before" / name).read_bytes(), 31)


def test_two_step_message():
    (finding,) = lint("gzip -c a > a.gz\n\nscp a.gz backup:\n", select=("PL301",))
    assert "copied by scp (line 3): the copy waits for the last byte of the compression" in finding.message
    assert "44 s" in finding.message


@pytest.mark.parametrize(
    "script",
    [
        # The compressed file is wanted here too.
        "gzip -c db.sql > db.gz; scp db.gz host:\nmv db.gz archive/\n",
        "gzip -c db.sql > db.gz; scp db.gz host:\nsha256sum db.gz > db.sum\n",
        "# db.gz stays for a week\ngzip -c db.sql > db.gz; scp db.gz host:\n",
        # Where it lands is not certain: a folder or a new name.
        "gzip -c db.sql > db.gz; scp db.gz host:/srv/backup\n",
        # Another user's files; sftp; a copy of something else.
        "gzip -c db.sql > db.gz\nsudo scp db.gz host:\n",
        "gzip -c db.sql > db.gz\nsftp host <<EOF\nput db.gz\nEOF\n",
        "gzip -c db.sql > db.gz\nscp db.sql host:\n",
        # Pulls that are not one compression into one file.
        "ssh h 'echo hi; mysqldump db | gzip > /tmp/x.gz'; scp h:/tmp/x.gz .\n",
        "ssh -T h <<E\necho hi\nmysqldump db | gzip > /tmp/x.gz\nE\nscp h:/tmp/x.gz .\n",
        "ssh -T h <<E\nmysqldump db | gzip > /tmp/x.gz\nls -l /tmp\nE\nscp h:/tmp/x.gz .\n",
        "ssh -T h 'cat > /tmp/x.gz' <<E\nmysqldump db | gzip > /tmp/x.gz\nE\nscp h:/tmp/x.gz .\n",
        "ssh h 'tar czf /tmp/x.tgz d'; scp h:/tmp/x.tgz .\n",
        "ssh h 'mysqldump db | gzip > /tmp/x.gz'; scp h:/tmp/y.gz .\n",
        "ssh h 'mysqldump db | gzip > /tmp/x.gz'; scp other:/tmp/x.gz .\n",
        "ssh h 'mysqldump db | gzip >> /tmp/x.gz'; scp h:/tmp/x.gz .\n",
        "ssh h 'mysqldump db > /tmp/x.sql'; scp h:/tmp/x.sql .\n",
        "scp h:/tmp/x.gz .\nssh h 'mysqldump db | gzip > /tmp/x.gz'\n",
    ],
)
def test_two_steps_and_pulls_left_alone(script):
    assert "PL301" not in codes(script)


@pytest.mark.parametrize(
    "script",
    [
        "gzip -c data.csv > data.csv.gz\nscp data.csv.gz backup:\n",
        "gzip -c 'my file.txt' > my.gz && scp -q my.gz user@backup:\n",
        "xz -c words.txt > w.xz\nscp w.xz backup:w.xz\n",
    ],
)
@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_two_step_advice_delivers_the_same_data(script, shell, tmp_path):
    """The stream lands the same name with the same content once decompressed (a faster level changes the bytes)."""
    import lzma
    import zlib

    before, after = _run_steps_and_advice(script, shell, tmp_path)
    landed = sorted(_remote_files(before))
    assert landed and sorted(_remote_files(after)) == landed

    def content(folder, name):
        data = (folder / name).read_bytes()
        return lzma.decompress(data) if name.endswith(".xz") else zlib.decompress(data, 31)

    for name in landed:
        assert content(tmp_path / "after", name) == content(tmp_path / "before", name)
