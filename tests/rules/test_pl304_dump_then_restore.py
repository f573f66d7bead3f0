"""PL304 dump-then-restore: a dump written to a file, then restored from it."""

from __future__ import annotations

import pytest
from harness import assert_lint, assert_same_behaviour, codes, lint

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
