"""The script each command runs (ssh, su, docker, kubectl, xargs, find, watch, flock): found, placed, fixed and run.

Each case is one line of a script after a line that gives the stand-ins'
remote host, container and pod (tests/sandbox/bin) the sandbox's files.
Where a fix is offered, the outer script runs before and after it with the
stand-ins, and stdout, stderr, status and files must match.
"""

from __future__ import annotations

import pytest
from harness import assert_fixed_and_same, fix_all, lint_all

from pipelint.shell.positions import LineIndex

SETUP = "for place in remote-db container-web pod-api; do mkdir -p $place && cp access.log dump.sql $place/; done\n"


def only_finding(line: str, **settings):
    (finding,) = lint_all(SETUP + line + "\n", **settings)
    return finding


def assert_placed(line: str, finding, written: str) -> None:
    """The finding points at `written`, where it stands in the line (line 2 of the script)."""
    source = (SETUP + line + "\n").encode()
    position = LineIndex(source).position(finding.start)
    assert (position.line, position.column) == (1, line.encode().index(written.encode()))
    assert source[finding.start : finding.end] == written.encode()


FIXED = [
    # (line, code, the text it points at, the line after --fix)
    ("ssh db 'cat access.log | grep 500'", "PL001", "cat access.log", "ssh db 'grep 500 < access.log'"),
    (
        'ssh -p 2222 -o BatchMode=yes db "cat access.log | wc -l"',
        "PL001",
        "cat access.log",
        'ssh -p 2222 -o BatchMode=yes db "wc -l < access.log"',
    ),
    ("ssh db -T 'cat access.log | wc -l'", "PL001", "cat access.log", "ssh db -T 'wc -l < access.log'"),
    (
        "sshpass -p secret ssh db 'cat dump.sql | mysql shop'",
        "PL004",
        "cat dump.sql",
        "sshpass -p secret ssh db 'mysql shop < dump.sql'",
    ),
    ("autossh -M 0 db 'cat access.log | wc -l'", "PL001", "cat access.log", "autossh -M 0 db 'wc -l < access.log'"),
    ("nice -n 10 ssh db 'cat access.log | wc -l'", "PL001", "cat access.log", "nice -n 10 ssh db 'wc -l < access.log'"),
    ("sudo -u app sh -c 'cat access.log | wc -l'", "PL001", "cat access.log", "sudo -u app sh -c 'wc -l < access.log'"),
    ("su - postgres -c 'cat dump.sql | psql shop'", "PL004", "cat dump.sql", "su - postgres -c 'psql shop < dump.sql'"),
    ('su -c "cat dump.sql | psql shop" postgres', "PL004", "cat dump.sql", 'su -c "psql shop < dump.sql" postgres'),
    (
        "su - postgres --command='cat dump.sql | psql shop'",
        "PL004",
        "cat dump.sql",
        "su - postgres --command='psql shop < dump.sql'",
    ),
    ("su postgres -c'cat dump.sql | psql shop'", "PL004", "cat dump.sql", "su postgres -c'psql shop < dump.sql'"),
    (
        "docker exec -i -u root web sh -c 'cat access.log | grep 500'",
        "PL001",
        "cat access.log",
        "docker exec -i -u root web sh -c 'grep 500 < access.log'",
    ),
    (
        "docker compose exec -T web sh -c 'cat dump.sql | mysql shop'",
        "PL004",
        "cat dump.sql",
        "docker compose exec -T web sh -c 'mysql shop < dump.sql'",
    ),
    (
        "kubectl exec -i -n prod api -c app -- sh -c 'cat access.log | wc -l'",
        "PL001",
        "cat access.log",
        "kubectl exec -i -n prod api -c app -- sh -c 'wc -l < access.log'",
    ),
    (
        "find . -name '*.log' -exec sh -c 'cat \"$1\" | wc -l' _ {} \\;",
        "PL001",
        'cat "$1"',
        "find . -name '*.log' -exec sh -c 'wc -l < \"$1\"' _ {} \\;",
    ),
    (
        "find . -name '*.log' -exec sh -c 'for f; do cat \"$f\" | wc -l; done' _ {} +",
        "PL001",
        'cat "$f"',
        "find . -name '*.log' -exec sh -c 'for f; do wc -l < \"$f\"; done' _ {} +",
    ),
    (
        "printf 'access.log\\0' | xargs -0 -n 1 -P 2 sh -c 'cat \"$1\" | wc -l' _",
        "PL001",
        'cat "$1"',
        "printf 'access.log\\0' | xargs -0 -n 1 -P 2 sh -c 'wc -l < \"$1\"' _",
    ),
    ("watch -n 5 'cat access.log | wc -l'", "PL001", "cat access.log", "watch -n 5 'wc -l < access.log'"),
    ("flock lockfile -c 'cat access.log | wc -l'", "PL001", "cat access.log", "flock lockfile -c 'wc -l < access.log'"),
    (
        "flock -w 5 lockfile sh -c 'cat access.log | wc -l'",
        "PL001",
        "cat access.log",
        "flock -w 5 lockfile sh -c 'wc -l < access.log'",
    ),
    ("ssh db \"sh -c 'cat access.log | wc -l'\"", "PL001", "cat access.log", "ssh db \"sh -c 'wc -l < access.log'\""),
    (
        "runuser -u app -- sh -c 'cat access.log | wc -l'",
        "PL001",
        "cat access.log",
        "runuser -u app -- sh -c 'wc -l < access.log'",
    ),
    (
        "docker exec web su app -c 'cat access.log | wc -l'",
        "PL001",
        "cat access.log",
        "docker exec web su app -c 'wc -l < access.log'",
    ),
]


@pytest.mark.parametrize(("line", "code", "written", "after"), FIXED)
def test_a_fix_inside_the_command_keeps_what_the_outer_script_does(line, code, written, after, tmp_path):
    finding = only_finding(line)
    assert finding.code == code
    assert_placed(line, finding, written)
    # The success path here; with an input taken away, the two tests below.
    # Last in the script, the outer command's status is the script's: the fix is unsafe
    # there (issue 13 class 10) and the two tests below take the missing inputs.
    outcome = assert_fixed_and_same(SETUP + line + "\n", SETUP + after + "\n", tmp_path, "dash", unsafe=True)
    assert outcome.status == 0 and outcome.stdout, outcome  # it ran, for real, and printed something


@pytest.mark.parametrize(("line", "code", "written", "after"), FIXED)
def test_with_an_input_taken_away_the_fix_keeps_what_the_outer_script_shows(line, code, written, after, tmp_path):
    # The outer command's status is not observed (`echo done` follows): then only
    # what PL001/PL004's "Fix safety" allows may differ (the consumer does not run).
    script, expected = f"{SETUP}{line}\necho done\n", f"{SETUP}{after}\necho done\n"
    assert_fixed_and_same(script, expected, tmp_path, "dash")


# Where the outer command is the script's last, the inner script's status is the
# script's: PL001's fix would change it when the input is missing, as it would at
# the top level (issue 13 class 10), so it is unsafe there, and safe once the
# outer script moves on (`echo done` after it, the test above).
@pytest.mark.parametrize(
    ("line", "after"),
    [
        ("ssh db 'cat access.log | wc -l'", "ssh db 'wc -l < access.log'"),
        ("sh -c 'cat access.log | wc -l'", "sh -c 'wc -l < access.log'"),
        ("docker exec -i web sh -c 'cat access.log | wc -l' || echo failed", "docker exec -i web sh -c 'wc -l < access.log' || echo failed"),
    ],
)
def test_the_fix_is_unsafe_where_the_outer_script_sees_the_status(line, after, tmp_path):
    assert fix_all(SETUP + line + "\n", "script.sh").decode() == SETUP + line + "\n"
    assert_fixed_and_same(SETUP + line + "\n", SETUP + after + "\n", tmp_path, "dash", unsafe=True)


def test_a_find_exec_script_whose_status_a_predicate_reads_gets_no_safe_fix():
    # `-exec … \;`: the inner status decides whether the next predicate runs.
    line = "find . -name '*.log' -exec sh -c 'cat access.log | wc -l' \\; -print\necho done\n"
    assert fix_all(line, "script.sh").decode() == line


DISPLAY_ONLY = [
    # (line, the text it points at, the rewrite the message shows, why the advice says it is not applied);
    # `; echo done`: the outer status unseen, the fix would be safe but for the quoting.
    ("ssh db cat access.log '|' wc -l; echo done", "cat access.log", "wc -l < access.log", "spans text the outer command puts"),
    ('sh -c "cat access.log | grep -c \\"500\\""; echo done', "cat access.log", 'grep -c "500" < access.log', "backslash"),
    ("find . -name '*.log' -exec sh -c 'cat {} | wc -l' \\;; echo done", "cat {}", "wc -l < {}", "the launcher writes in"),
    ("printf 'access.log\\n' | xargs -I {} sh -c 'cat {} | wc -l'; echo done", "cat {}", "wc -l < {}", "the launcher writes in"),
]


@pytest.mark.parametrize(("line", "written", "rewrite", "reason"), DISPLAY_ONLY)
def test_no_fix_where_the_outer_command_cannot_take_the_edit(line, written, rewrite, reason):
    finding = only_finding(line)
    assert_placed(line, finding, written)
    assert finding.fix is None
    assert f": `{rewrite}`)" in finding.message
    assert finding.help.startswith("Redirect ") and reason in finding.help
    assert fix_all(SETUP + line + "\n") == (SETUP + line + "\n").encode()


def test_single_quotes_inside_double_quotes_are_fine_for_the_edit(tmp_path):
    line, written, rewrite = "ssh db \"cat access.log | grep 'a b'\"; echo done", "cat access.log", "grep 'a b' < access.log"
    finding = only_finding(line)
    assert_placed(line, finding, written)
    assert finding.fix is not None
    assert_fixed_and_same(SETUP + line + "\n", f'{SETUP}ssh db "{rewrite}"; echo done\n', tmp_path, "dash", inputs=())


@pytest.mark.parametrize(
    "line",
    [
        "ssh -N db 'cat access.log | wc -l'",  # no command runs
        "ssh -s db 'cat access.log | wc -l'",  # a subsystem, not a shell command
        'ssh $SSH_OPTS db "cat access.log | wc -l"',  # which word is the host cannot be told
        "docker run img sh -c 'cat access.log | wc -l'",  # not `exec`
        "zsh -c 'cat access.log | wc -l'",  # a shell pipelint does not read
        "su app -lc'cat access.log | wc -l'",  # -l and the script in one word: not taken apart
    ],
)
def test_commands_whose_text_is_not_read(line):
    assert lint_all(SETUP + line + "\n") == []


@pytest.mark.parametrize(
    ("line", "settings", "codes"),
    [
        # PL503's fix is a here-string: only where the inner shell is bash
        ("ssh db 'echo \"$x\" | wc -c'", {}, []),
        ("ssh db 'echo \"$x\" | wc -c'", {"remote_shell": "bash"}, ["PL503"]),
        ("su app -c 'echo \"$x\" | wc -c'", {}, []),
        ("su app -c 'echo \"$x\" | wc -c'", {"remote_shell": "bash"}, ["PL503"]),
        ("su -s /bin/bash app -c 'echo \"$x\" | wc -c'", {}, ["PL503"]),
        ("flock f -c 'echo \"$x\" | wc -c'", {"remote_shell": "bash"}, ["PL503"]),
        ("watch 'echo \"$x\" | wc -c'", {"remote_shell": "bash"}, []),  # watch always uses sh -c
        ('ssh db "bash -c \'echo \\"\\$x\\" | wc -c\'"', {}, ["PL503"]),  # the remote command names its shell
        ("docker exec web bash -c 'echo \"$x\" | wc -c'", {}, ["PL503"]),
        ("docker exec web sh -c 'echo \"$x\" | wc -c'", {}, []),
    ],
)
def test_the_dialect_is_the_shell_that_runs_the_text(line, settings, codes):
    # PL503 is opt-in outside loops (--extend-select PL5): select it to see the dialect's effect.
    assert [f.code for f in lint_all(line + "\n", "outer.bash", extend_select=("PL5",), **settings)] == codes
