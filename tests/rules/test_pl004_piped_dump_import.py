"""PL004 piped-dump-import."""

from __future__ import annotations

import pytest
from harness import assert_lint, assert_same_behaviour, codes, fix, known_to_fail, lint

from pipelint.finding import Applicability


@pytest.mark.parametrize(
    "script",
    [
        "cat dump.sql | mysql shop",
        "cat dump.sql | mariadb -u root shop",
        "cat dump.sql | psql -d shop",
        "cat shop.dump | pg_restore -d shop",
        "cat dump.sql | sqlite3 shop.db",
        "cat dump.archive | mongorestore --archive",
        "cat cmds.txt | redis-cli --pipe",
        "cat backup.xb | mbstream -x",
        "cat backup.xb | xbstream -x -C /var/lib/mysql",
        "cat backup.tar | tar xf -",
        "cat backup.tar | tar -xzf -",
        "cat backup.tar | tar --extract -f -",
        "cat backup.cpio | cpio -idv",
        "cat dump.sql | sudo -u postgres psql",
        "cat dump.sql | env MYSQL_PWD=x mysql shop",
        "cat dump.sql | nice -n 19 mysql shop",
        # issue 10: through a forwarder that hands its stdin on (forwarders.py)
        "cat d.sql | docker exec -i C mysql shop",
        "cat d.sql | docker exec --interactive -u root C sudo -u pg psql",
        "cat d.sql | docker compose exec -T db psql -U app",
        "cat d.sql | docker-compose exec -T db mysql shop",
        "cat d.sql | kubectl exec -i P -- mysql shop",
        "cat d.sql | kubectl -n prod exec -i P -c db -- psql",
        "cat d.sql | ssh host mysql db",
        "cat d.sql | ssh -p 2222 host 'mysql db'",
    ],
)
def test_reports_instead_of_pl001(script):
    assert codes(script) == ["PL004"]


@pytest.mark.parametrize(
    "script",
    [
        "cat cmds.txt | redis-cli",
        "cat backup.tar | tar tf -",
        "cat list.txt | cpio -o > out.cpio",
        "cat dump.sql | mysqldump-parser",
        # the forwarder does not hand stdin on: nothing reads the dump
        "cat d.sql | docker exec C mysql shop",
        "cat d.sql | kubectl exec P -- mysql shop",
        "cat d.sql | ssh -n host mysql db",
        "cat d.sql | ssh host ls",
    ],
)
def test_other_consumers_are_pl001_or_nothing(script):
    assert "PL004" not in codes(script)


def test_message_states_the_measured_cost():
    (finding,) = lint("cat dump.sql | mysql shop")
    assert "419 MB" in finding.message and "3×" in finding.message


TRICKY = [
    "cat dump.sql | mysql --user=app shop\necho after\n",
    "cat dump.sql \\\n  | mysql -u root \\\n    shop\necho after\n",
    "cat dump.sql | psql -d shop > out.txt\necho after\n",
    "cat 'dump.sql' | sudo mysql shop\necho after\n",
]

# Cases the strict harness shows breaking issue 13's contract: strict xfails until the rule's fix lands.
ISSUE_13: dict = {}

# The script sees the status (its own exit status, `||`): a missing dump changes it.
UNSAFE_WHERE_SEEN = [
    "cat dump.sql | mysql --user=app shop\n",
    "cat 'dump.sql' | mysql shop || echo failed\n",
    # A directory makes tar say more; a missing dump leaves out.txt unwritten, and the script reads it.
    "cat backup.tar | tar -xf -\ncat hello.txt\n",
    "cat dump.sql | psql -d shop > out.txt 2>&1\ncat out.txt\n",
    "set -e\ncat dump.sql | mysql shop\necho after\n",
]
# Given a directory, the client's own error message would go where its stderr is redirected.
UNSAFE_STDERR = ["cat dump.sql | psql -d shop > out.txt 2>&1\necho after\n", "cat d.sql | mysql shop 2>/dev/null\necho\n"]


@pytest.mark.parametrize("script", UNSAFE_STDERR)
def test_fix_is_unsafe_where_the_consumer_s_stderr_is_redirected(script):
    (finding,) = [f for f in lint(script) if f.code == "PL004"]
    assert finding.fix.applicability is Applicability.UNSAFE


@pytest.mark.parametrize("script", UNSAFE_WHERE_SEEN)
def test_fix_is_unsafe_where_the_status_is_seen(script, tmp_path):
    (finding,) = [f for f in lint(script) if f.code == "PL004"]
    assert finding.fix.applicability is Applicability.UNSAFE
    fixed = fix(script, unsafe=True)
    with pytest.raises(AssertionError):
        assert_same_behaviour(script.encode(), fixed, tmp_path, "bash", rules=("PL004",))


@pytest.mark.parametrize("script", known_to_fail(TRICKY, ISSUE_13))
def test_fix_keeps_behaviour(script, tmp_path):
    fixed = fix(script)
    assert fixed != script.encode()
    assert_same_behaviour(script.encode(), fixed, tmp_path, "bash")


def test_fix():
    assert fix("cat dump.sql | mysql shop\necho\n") == b"mysql shop < dump.sql\necho\n"
    assert_lint("mysql shop < dump.sql\n")


def test_fix_through_ssh_keeps_behaviour(tmp_path):
    """Success path only: the sandbox's ssh makes a local folder for the host, which a skipped ssh would not."""
    script = b"cat dump.sql | ssh db1 mysql shop\necho after\n"
    fixed = fix(script)
    assert fixed == b"ssh db1 mysql shop < dump.sql\necho after\n"
    assert_same_behaviour(script, fixed, tmp_path, "bash", inputs=())
