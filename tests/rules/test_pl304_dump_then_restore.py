"""PL304 dump-then-restore: a dump written to a file, then restored from it."""

from __future__ import annotations

import re

import pytest
from harness import assert_lint, assert_same_behaviour, codes, lint, run_script

from pipelint.finding import Applicability
from pipelint.finding import apply_edits


def streamed(script: str) -> str | None:
    (finding,) = assert_lint(script, "PL304")
    if finding.fix is None:
        return None
    assert finding.fix.applicability is Applicability.DISPLAY_ONLY
    return apply_edits(script.encode(), list(finding.fix.edits)).decode()


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ("mysqldump shop > shop.sql && mysql -h replica shop < shop.sql\n", "mysqldump shop | mysql -h replica shop\n"),
        ("mysqldump shop > shop.sql; mysql -h replica shop < shop.sql\n", "mysqldump shop | mysql -h replica shop\n"),
        ("mysqldump shop > shop.sql\nmysql -h replica shop < shop.sql\n", "mysqldump shop | mysql -h replica shop\n"),
        ("mariadb-dump -u root shop >/tmp/s.sql\nmariadb -h r shop </tmp/s.sql\n", "mariadb-dump -u root shop | mariadb -h r shop\n"),
        ("pg_dump -h a app 2>err > app.sql; psql -h b app < app.sql\n", "pg_dump -h a app 2>err | psql -h b app\n"),
        ("pg_dump -Fp app > app.sql\npsql -h b app < app.sql\n", "pg_dump -Fp app | psql -h b app\n"),
        ("pg_dumpall > all.sql\npsql -h b -d postgres < all.sql\n", "pg_dumpall | psql -h b -d postgres\n"),
        ('mysqldump "$db" > "/tmp/$db.sql"\nmysql -h r "$db" < /tmp/"$db".sql\n', 'mysqldump "$db" | mysql -h r "$db"\n'),
        ("mysqldump shop > shop.sql && mysql -h r shop < shop.sql || echo failed\n", "mysqldump shop | mysql -h r shop || echo failed\n"),
        ("mysqldump shop > shop.sql\nmysql -h r shop < shop.sql\nrm -f shop.sql\n", "mysqldump shop | mysql -h r shop\nrm -f shop.sql\n"),
        ("for db in a b; do\n  mysqldump $db > $db.sql\n  mysql -h r $db < $db.sql\ndone\n", "for db in a b; do\n  mysqldump $db | mysql -h r $db\ndone\n"),
        ("f() {\n  pg_dump app > app.sql && psql -h b app < app.sql\n}\n", "f() {\n  pg_dump app | psql -h b app\n}\n"),
    ],
)
def test_reports_with_the_stream_spelled_out(script, expected):
    assert streamed(script) == expected


@pytest.mark.parametrize(
    "script",
    [
        # Something else stands between them: the finding stays, the advice is help.
        "mysqldump shop > shop.sql\nmysqladmin -h r create shop\nmysql -h r shop < shop.sql\n",
        "mysqldump shop > shop.sql || exit 1\nmysql -h r shop < shop.sql\n",
        "mysqldump shop > shop.sql\n# copy it\nmysql -h r shop < shop.sql\n",
        "mysqldump -r shop.sql shop\nmysql -h r shop < shop.sql\n",
        "mysqldump --result-file=shop.sql shop\nmysql -h r shop < shop.sql\n",
        "pg_dump -f app.sql app\npsql -h b app < app.sql\n",
    ],
)
def test_reports_with_advice_only(script):
    (finding,) = assert_lint(script, "PL304")
    assert finding.fix is None and "Stream the dump into" in finding.help


@pytest.mark.parametrize(
    "script",
    [
        # The file is wanted again.
        "mysqldump shop > shop.sql\nmysql -h r shop < shop.sql\ngzip shop.sql\n",
        "mysqldump shop > shop.sql\nmysql -h r shop < shop.sql\nscp shop.sql backup:\n",
        "mysqldump shop > shop.sql\nmysql -h r1 shop < shop.sql\nmysql -h r2 shop < shop.sql\n",
        "# keep shop.sql for the audit\nmysqldump shop > shop.sql\nmysql -h r shop < shop.sql\n",
        # pg_restore needs the file; formats other than plain SQL.
        "pg_dump -Fc app > app.dump\npg_restore -j 4 -d app app.dump\n",
        "pg_dump -Fc app > app.dump\npsql -h b app < app.dump\n",
        "pg_dump --format=custom app > app.dump\npsql -h b app < app.dump\n",
        "mysqldump --xml shop > shop.xml\nmysql -h r shop < shop.xml\n",
        "mysqldump --tab=/tmp shop\nmysql -h r shop < /tmp/t.sql\n",
        # Not the same file, not its client, not from stdin, not a plain write.
        "mysqldump shop > a.sql\nmysql -h r shop < b.sql\n",
        "mysqldump shop > shop.sql\npsql -h r shop < shop.sql\n",
        "pg_dump app > app.sql\nmysql -h r app < app.sql\n",
        "mysqldump shop > shop.sql\nmysql -h r shop -e 'source shop.sql'\n",
        "mysqldump shop >> shop.sql\nmysql -h r shop < shop.sql\n",
        "mysqldump shop &> shop.sql\nmysql -h r shop < shop.sql\n",
        "mysqldump shop | gzip > shop.sql.gz\nmysql -h r shop < shop.sql.gz\n",
        # Different blocks.
        "mysqldump shop > shop.sql\nf() { mysql -h r shop < shop.sql; }\n",
        "if mysqldump shop > shop.sql; then :; fi\nmysql -h r shop < shop.sql\n",
        # A restore that comes first.
        "mysql -h r shop < shop.sql\nmysqldump shop > shop.sql\n",
    ],
)
def test_leaves_alone(script):
    assert "PL304" not in codes(script)


def test_message_cites_the_measurement_and_the_line():
    (finding,) = lint("mysqldump shop > shop.sql\n\nmysql -h replica shop < shop.sql\n", select=("PL304",))
    assert "then `mysql` (line 3) reads it back" in finding.message
    assert "2.2×" in finding.message


def test_the_stream_restores_the_same_data(tmp_path):
    """The display-only edit, run with the sandbox's stand-in clients: the restore gets the same bytes."""
    script = "mysqldump() { cat dump.sql; }\nmysqldump shop > staged.sql && mysql shop < staged.sql\nrm -f staged.sql\n"
    fixed = "mysqldump() { cat dump.sql; }\nmysqldump shop | mysql shop\nrm -f staged.sql\n"
    assert streamed(script) == fixed
    assert_same_behaviour(script.encode(), fixed.encode(), tmp_path, "bash", inputs=())


def advice(script: str) -> str:
    (finding,) = assert_lint(script, "PL304")
    assert finding.fix is None
    return finding.help


@pytest.mark.parametrize(
    ("script", "stream"),
    [
        # Options with their values attached, computed (most scripts pass credentials this way).
        ("mysqldump -u$U -p$P db > d.sql; mysql -h other db < d.sql\n", "mysqldump -u$U -p$P db | mysql -h other db\n"),
        ("mysqldump --password=$P --port=$PORT db > d.sql\nmysql -h$H db < d.sql\n", "mysqldump --password=$P --port=$PORT db | mysql -h$H db\n"),
        ("mysqldump -psecret db > d.sql && mysql -psecret -h r db < d.sql\n", "mysqldump -psecret db | mysql -psecret -h r db\n"),
        # A split word (tree-sitter-bash #315) names the file on both lines.
        ("mysqldump db > $B/$db.sql\nmysql -h r db < $B/$db.sql\n", "mysqldump db | mysql -h r db\n"),
    ],
)
def test_more_shapes_with_the_stream_spelled_out(script, stream):
    assert streamed(script) == stream


@pytest.mark.parametrize(
    ("script", "help"),
    [
        # A dump compressed into a file, then decompressed into the client.
        ("mysqldump db | gzip > d.sql.gz\ngunzip < d.sql.gz | mysql -h other db\n", "Stream the dump into mysql: `mysqldump db | mysql -h other db`"),
        ("mysqldump db | gzip > d.sql.gz\nzcat d.sql.gz | mysql -h other db\nrm d.sql.gz\n", "Stream the dump into mysql: `mysqldump db | mysql -h other db`"),
        ("pg_dump app | xz -9 > /b/a.sql.xz\nxz -dc /b/a.sql.xz | psql -h b app\n", "Stream the dump into psql: `pg_dump app | psql -h b app`"),
        # A dump written, copied to another host, restored there.
        ('mysqldump db > d.sql\nscp d.sql h:/tmp/\nssh h "mysql db < /tmp/d.sql"\n', "Stream the dump to the other host: `mysqldump db | ssh h 'mysql db'`"),
        (
            'mysqldump db | gzip > d.sql.gz\nscp d.sql.gz h:/tmp/\nssh h "gunzip < /tmp/d.sql.gz | mysql db"\n',
            "Stream the dump to the other host: `mysqldump db | gzip -1 -c | ssh h 'gunzip -c | mysql db'`",
        ),
        (
            'pg_dump app | xz > a.xz\nrsync a.xz h:a.xz\nssh -p 22 h "xzcat a.xz | psql app"\n',
            "Stream the dump to the other host: `pg_dump app | xz -T0 -c | ssh -p 22 h 'unxz -c | psql app'`",
        ),
    ],
)
def test_compressed_and_copied_dumps(script, help):
    assert advice(script).startswith(help + ", if nothing else needs")


@pytest.mark.parametrize(
    "script",
    [
        "mysqldump db | gzip > d.sql.gz\ngunzip < d.sql.gz | mysql -h other db\ncp d.sql.gz /archive/\n",
        "mysqldump db | gzip > d.sql.gz\ngunzip d.sql.gz | mysql -h other db\n",  # gunzip writes d.sql, mysql reads nothing
        "mysqldump db | gzip > d.sql.gz\nbunzip2 -c d.sql.gz | mysql -h other db\n",
        "mysqldump db | tee d.sql | gzip > d.sql.gz\nzcat d.sql.gz | mysql -h other db\n",
        'mysqldump db > d.sql\nscp d.sql h:/tmp/\nssh h2 "mysql db < /tmp/d.sql"\n',
        'mysqldump db > d.sql\nscp d.sql h:/tmp/\nssh h "mysql db < /tmp/other.sql"\n',
        'mysqldump db > d.sql\nscp d.sql h:/tmp/\nssh h "mysql db < /tmp/d.sql; rm /tmp/d.sql"\n',
        'mysqldump db > d.sql\nscp d.sql h:/tmp/\nssh h "mysql db < /tmp/d.sql"\nmv d.sql /archive/\n',
    ],
)
def test_compressed_and_copied_dumps_left_alone(script):
    assert "PL304" not in codes(script)


@pytest.mark.parametrize(
    "script",
    [
        "mysqldump db > d.sql\nscp d.sql h:\nssh h 'mysql db < d.sql'\n",
        "mysqldump db | gzip > d.sql.gz\nscp d.sql.gz h:\nssh h 'gunzip < d.sql.gz | mysql db'\n",
    ],
)
@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_the_remote_stream_restores_the_same_data(script, shell, tmp_path):
    """The advice run with the sandbox's stand-ins (ssh and scp use a folder per host; mysql prints a checksum
    of what it read): the restore there reads the same bytes."""
    dump = "mysqldump() { cat dump.sql; }\n"
    stream = re.search(r"`(.*)`", advice(script)).group(1)
    before = run_script((dump + script).encode(), tmp_path / "before", shell)
    after = run_script((dump + stream + "\n").encode(), tmp_path / "after", shell)
    assert before.status == after.status == 0
    assert before.stdout == after.stdout and b"mysql [db]" in after.stdout
