"""PL401 bulk-load-order: bulk loads found in every place SQL reaches the client, and only there."""

from __future__ import annotations

import json

import pytest
from harness import assert_lint, codes, lint

from pipelint.finding import Severity


def pl401(script: str, path: str = "script.bash") -> list:
    return [finding for finding in lint(script, path) if finding.code == "PL401"]


@pytest.mark.parametrize(
    "script",
    [
        "mysql -e \"LOAD DATA INFILE '/tmp/t.csv' INTO TABLE t\" shop",
        "mysql shop -e \"load data local infile 'data.csv' into table t\"",
        "mysql --execute=\"LOAD DATA LOCAL INFILE 'data.csv' INTO TABLE t\" shop",
        "mysql -e'LOAD DATA INFILE \"a\" INTO TABLE t'",
        "mysql -e \"LOAD DATA LOW_PRIORITY LOCAL INFILE 'a' INTO TABLE t\"",
        "mysql -e \"LOAD DATA CONCURRENT INFILE 'a' INTO TABLE t\"",
        "mysql -e \"Load  Data\tLocal  InFile '$f' INTO TABLE t\"",
        "mysql -e \"LOAD DATA \\\nINFILE 'a' INTO TABLE t\"",
        "mariadb -e \"LOAD DATA INFILE 'a' INTO TABLE t\"",
        "/usr/bin/mysql -e \"LOAD DATA INFILE 'a' INTO TABLE t\"",
        "sudo -u mysql mysql -e \"LOAD DATA INFILE 'a' INTO TABLE t\"",
        "env MYSQL_PWD=x nice -n 19 mysql -e \"LOAD DATA INFILE 'a' INTO TABLE t\"",
        "mysql shop <<EOF\nLOAD DATA INFILE '$file' INTO TABLE t;\nEOF\n",
        "mysql shop <<'SQL'\nSET foreign_key_checks = 0;\nload data\n  local infile 'a.csv'\n  into table t;\nSQL\n",
        "mysql shop <<-EOF\n\tLOAD DATA INFILE 'a' INTO TABLE t;\n\tEOF\n",
        "mysql shop <<EOF | tail -n 1\nLOAD DATA INFILE 'a' INTO TABLE t;\nEOF\n",
        "mysql shop <<< \"LOAD DATA INFILE 'a' INTO TABLE t\"",
        "mysql shop <<< 'LOAD DATA LOCAL INFILE \"a\" INTO TABLE t' > load.log 2>&1",
        "mysqlimport --local --fields-terminated-by=, shop customers.csv",
        "mariadb-import --local shop customers.csv",
        "n=$(mysql -N -e \"LOAD DATA INFILE 'a' INTO TABLE t; SELECT ROW_COUNT()\")",
        "if mysql -e \"LOAD DATA INFILE 'a' INTO TABLE t\"; then echo ok; fi",
        "load() { mysql -e \"LOAD DATA INFILE '$1' INTO TABLE t\"; }",
        "for f in *.csv; do mysqlimport --local shop \"$f\"; done",
    ],
)
def test_reports(script):
    (finding,) = pl401(script)
    assert finding.severity is Severity.INFO


@pytest.mark.parametrize(
    "script",
    [
        "echo \"LOAD DATA LOCAL INFILE 'a' INTO TABLE t\" | mysql shop",
        "printf '%s\\n' \"LOAD DATA INFILE 'a' INTO TABLE t;\" | mysql shop",
        "cat <<EOF | mariadb shop\nLOAD DATA INFILE 'a' INTO TABLE t;\nEOF\n",
        "cat <<EOF | sudo mysql shop 2>&1 | tee load.log\nLOAD DATA INFILE 'a' INTO TABLE t;\nEOF\n",
    ],
)
def test_reports_sql_piped_into_the_client(script):
    (finding,) = pl401(script)
    assert "piped to" in finding.message


@pytest.mark.parametrize(
    "script",
    [
        # The real idioms around bulk loads that are not bulk loads.
        "mysqldump shop > dump.sql",
        "mysql shop < dump.sql",
        "mysql -e \"SELECT * INTO OUTFILE '/tmp/t.csv' FROM t\" shop",
        "mysql -e \"SHOW VARIABLES LIKE 'local_infile'\"",
        "mysql -e \"SET GLOBAL local_infile = 1\"",
        "mysql --local-infile=1 shop < load.sql",
        "mysql -e \"$sql\" shop",
        "psql -c \"\\copy t FROM 'a.csv' CSV\" shop",
        "sqlite3 shop.db \".import a.csv t\"",
        # LOAD DATA text that is not sent to a MySQL client.
        "echo \"LOAD DATA INFILE 'a' INTO TABLE t\" >> notes.txt",
        "grep -il 'load data infile' *.sql",
        "echo \"LOAD DATA INFILE 'a' INTO TABLE t\" | tee notes.txt",
        "cat <<EOF > load.sql\nLOAD DATA INFILE 'a' INTO TABLE t;\nEOF\n",
        "# mysql -e \"LOAD DATA INFILE 'a' INTO TABLE t\"",
        "mysql shop <<< \"SELECT 'LOAD DATA' AS tip\"",
        "mysql -e \"UNLOADDATA INFILE\"",
        "mysqlimporter shop a.csv",
    ],
)
def test_leaves_alone(script):
    assert "PL401" not in codes(script)


def test_one_finding_when_the_client_and_its_feeder_both_carry_sql():
    script = "echo \"LOAD DATA INFILE 'a' INTO TABLE t\" | mysql -e \"LOAD DATA INFILE 'b' INTO TABLE t\""
    assert len(pl401(script)) == 1


def test_the_finding_covers_the_client_command_not_the_here_document():
    script = "mysql shop <<EOF\nLOAD DATA INFILE 'a' INTO TABLE t;\nEOF\n"
    (finding,) = pl401(script)
    assert script.encode()[finding.start : finding.end] == b"mysql shop"


def test_advice_is_help_and_never_applied():
    from harness import fix

    script = "mysqlimport --local shop customers.csv\n"
    (finding,) = pl401(script)
    assert finding.fix is None
    assert "primary key" in finding.help and "secondary indexes" in finding.help
    assert fix(script, unsafe=True) == script.encode()


def test_message_quotes_the_measured_cost():
    (finding,) = pl401("mysqlimport --local shop customers.csv")
    assert finding.message.startswith("`mysqlimport` bulk-loads rows")
    assert "2.8×" in finding.message


def test_reported_in_sh_scripts_too():
    assert_lint("#!/bin/sh\nmysqlimport --local shop customers.csv\n", "PL401", path="load.sh")


def test_not_reported_inside_a_parse_error():
    # tree-sitter files the whole unclosed function body under an ERROR node.
    assert "PL401" not in codes("f() { mysql -e \"LOAD DATA INFILE 'a' INTO TABLE t\"\n")
    assert "PL401" not in codes("f() { mysqlimport --local shop a.csv\n")
    assert "PL401" in codes("f() { mysqlimport --local shop a.csv; }\n")
    # An ERROR inside the command's arguments: what is left once it is blanked is not what was written.
    assert "PL401" not in codes("mysqlimport $(( cat words.txt | tail\n")
    assert "PL401" not in codes("mysql -e \"LOAD DATA INFILE 'a' INTO TABLE t\" $(( cat a.csv | tail\n")


def test_suppression_comment_silences_it():
    script = "# pipelint: disable=PL401\nmysql shop <<EOF\nLOAD DATA INFILE 'a' INTO TABLE t;\nEOF\n"
    assert "PL401" not in codes(script)
    assert "PL401" not in codes("true\n# pipelint: disable=bulk-load-order\nmysqlimport --local shop a.csv\n")


@pytest.mark.parametrize("source", [b"mysql -e \"LOAD DATA \xff\xfe INFILE\"\n", b"mysql <<<\n", b"mysqlimport\x00 a\n", b""])
def test_bad_input_gives_no_traceback(source):
    lint(source)


def test_cli_shows_the_advice(tmp_path):
    from click.testing import CliRunner

    from pipelint.cli.main import cli

    script = tmp_path / "load.bash"
    script.write_text("mysqlimport --local shop customers.csv\n")
    result = CliRunner().invoke(cli, ["check", "--output-format", "json", str(script)])
    assert result.exit_code == 1, result.output
    (record,) = json.loads(result.output)
    assert record["code"] == "PL401" and record["severity"] == "info"
    assert record["fix"] is None and "Sort the file on the primary key" in record["help"]
    full = CliRunner().invoke(cli, ["check", "--output-format", "full", str(script)])
    assert "Sort the file on the primary key" in full.output and "(apply by hand)" in full.output
