"""Here-documents fed to a shell: the body is a script, linted where it stands and fixed where the body can take it.

A quoted delimiter (`<<'EOF'`) hands the body over byte for byte; an
unquoted one lets the outer shell expand `$x`, `$(…)` and backquotes and
remove `\\$`-style escapes first; `<<-` strips leading TABs. Fixes are proven
by running the outer script before and after with the stand-ins.
"""

from __future__ import annotations

import pytest
from harness import assert_fixed_and_same, assert_same_behaviour, fix_all, lint_all

from pipelint.shell.positions import LineIndex

SETUP = "for place in remote-db container-web pod-api; do mkdir -p $place && cp access.log dump.sql $place/; done\n"


def placed(script: str, finding) -> tuple[int, int, bytes]:
    source = script.encode()
    position = LineIndex(source).position(finding.start)
    return position.line, position.column, source[finding.start : finding.end]


FIXED = [
    # (the here-document command, its body, the body after --fix, shell)
    ("ssh db <<'EOF'", "echo start\ncat access.log | grep 500", "echo start\ngrep 500 < access.log", "dash"),
    ("ssh db <<'EOF'", "cat access.log | grep 500", "grep 500 < access.log", "dash"),
    ("ssh -T db bash -s <<'EOF'", "cat access.log | wc -l", "wc -l < access.log", "dash"),
    ("ssh db 'bash -s' <<\\EOF", "cat access.log | wc -l", "wc -l < access.log", "dash"),
    ('ssh db sudo bash -s -- one two <<"EOF"', "cat access.log | wc -l", "wc -l < access.log", "dash"),
    ("bash <<EOF", 'cat access.log | grep "$pattern"', 'grep "$pattern" < access.log', "bash"),
    (
        "sh -s a b <<EOF",
        "echo \\$1 $((6 * 7)) ${#pattern}\ncat access.log | wc -l",
        "echo \\$1 $((6 * 7)) ${#pattern}\nwc -l < access.log",
        "dash",
    ),
    ("sudo -u app bash <<'EOF'", "cat access.log | wc -l", "wc -l < access.log", "bash"),
    ("su - postgres <<'EOF'", "cat dump.sql | psql shop", "psql shop < dump.sql", "dash"),
    ("docker exec -i web sh <<'EOF'", "cat access.log | wc -l", "wc -l < access.log", "dash"),
    ("kubectl exec -i api -- sh -s <<'EOF'", "cat access.log | wc -l", "wc -l < access.log", "dash"),
    ("flock lockfile bash <<'EOF'", "cat access.log | wc -l", "wc -l < access.log", "dash"),
    ("setsid sh <<'EOF'", "cat access.log | wc -l", "wc -l < access.log", "dash"),
    ("sh -s <<-EOF", "\t\tcat access.log | wc -l", "\t\twc -l < access.log", "dash"),  # the TABs are skipped
    ("ssh db <<'EOF'", "sh -c 'cat access.log | wc -l'", "sh -c 'wc -l < access.log'", "dash"),  # nested sh -c
]


@pytest.mark.parametrize(("opening", "body", "after", "shell"), FIXED)
def test_a_fix_in_the_body_keeps_what_the_outer_script_does(opening, body, after, shell, tmp_path):
    script = f"{SETUP}pattern=500\n{opening}\n{body}\nEOF\necho after\n"
    (finding,) = lint_all(script, "outer.bash")
    last = body.splitlines()[-1]
    column = last.index("cat ")
    assert placed(script, finding) == (2 + len(body.splitlines()), column, last[column:].split(" |")[0].encode())
    expected = f"{SETUP}pattern=500\n{opening}\n{after}\nEOF\necho after\n"
    outcome = assert_fixed_and_same(script, expected, tmp_path, shell, "outer.bash")
    assert outcome.status == 0 and outcome.stdout.endswith(b"after\n") and len(outcome.stdout) > len(b"after\n")


def test_a_tab_indented_delimiter_of_a_dash_here_document_is_kept(tmp_path):
    # <<- strips the TABs before the closing delimiter too; the fix must leave that line as it is.
    script = f"{SETUP}sh -s <<-EOF\n\t\tcat access.log | wc -l\n\tEOF\necho after\n"
    (finding,) = lint_all(script)
    assert placed(script, finding) == (2, 2, b"cat access.log")
    expected = f"{SETUP}sh -s <<-EOF\n\t\twc -l < access.log\n\tEOF\necho after\n"
    outcome = assert_fixed_and_same(script, expected, tmp_path, "dash")
    assert outcome.stdout.endswith(b"after\n") and outcome.stdout != b"after\n"


def test_a_fix_across_stripped_tabs_is_shown_not_applied():
    # The edit would join two lines of the body, and <<- strips the TABs of only one of them.
    script = "sh -s <<-EOF\n\tcat access.log |\n\t\twc -l\n\tEOF\n"
    (finding,) = lint_all(script)
    assert finding.fix is None and "`wc -l < access.log`" in finding.message


def test_a_pipeline_across_lines_of_a_quoted_body_is_fixed(tmp_path):
    script = f"{SETUP}ssh db <<'EOF'\ncat access.log |\n  grep 500\nEOF\necho done\n"
    assert_fixed_and_same(script, f"{SETUP}ssh db <<'EOF'\ngrep 500 < access.log\nEOF\necho done\n", tmp_path, "dash")


@pytest.mark.parametrize(
    "body",
    [
        'cat "$log" | wc -l',  # the outer shell puts the name there: the edit would move its expansion
        "cat \\$log | wc -l",  # \\$ is the outer shell's escape
    ],
)
def test_an_edit_the_unquoted_body_cannot_take_is_shown_not_applied(body):
    script = f"log=access.log\nsh <<EOF\n{body}\nEOF\n"
    findings = lint_all(script)
    assert all(finding.fix is None for finding in findings)
    assert fix_all(script) == script.encode()


def test_the_outer_shells_expansions_are_linted_once_as_the_outer_script():
    line = "echo $(cat access.log | wc -l) ${x:-$(cat words.txt | wc -l)}"
    script = f"bash <<EOF\n{line}\nEOF\n"
    first, second = line.index("cat access.log"), line.index("cat words.txt")
    assert [(f.code, placed(script, f)[:2]) for f in lint_all(script)] == [
        ("PL001", (1, first)),
        ("PL001", (1, second)),
    ]


def test_here_string_fed_to_bash(tmp_path):
    script = f"{SETUP}bash <<< 'cat access.log | wc -l'\necho done\n"
    (finding,) = lint_all(script, "outer.bash")
    assert placed(script, finding) == (1, 10, b"cat access.log")
    assert_fixed_and_same(script, f"{SETUP}bash <<< 'wc -l < access.log'\necho done\n", tmp_path, "bash", "outer.bash")


@pytest.mark.parametrize(
    "opening",
    [
        "ssh db 'cat > copy.sh' <<'EOF'",  # the remote command reads the body as data
        "ssh -n db <<'EOF'",  # ssh reads nothing
        "docker exec web sh <<'EOF'",  # without -i the container's sh never sees it
        "printf '%s\\n' x | xargs sh <<'EOF'",  # xargs gives its command /dev/null
        "bash -c 'cat' <<'EOF'",  # -c: the body is the script's stdin
        "bash job.sh <<'EOF'",  # a script file reads the body as data
        "cat <<'EOF'",
        "bash 3<<'EOF'",  # not stdin
    ],
)
def test_here_documents_that_are_data(opening):
    assert lint_all(f"{opening}\ncat access.log | wc -l\nEOF\n") == []


@pytest.mark.parametrize(
    ("opening", "settings", "codes"),
    [
        ("ssh db <<'EOF'", {}, []),  # the login shell: POSIX sh unless the settings say bash
        ("ssh db <<'EOF'", {"remote_shell": "bash"}, ["PL503"]),
        ("ssh db bash -s <<'EOF'", {}, ["PL503"]),
        ("ssh db sh <<'EOF'", {"remote_shell": "bash"}, []),
        ("bash <<'EOF'", {}, ["PL503"]),
        ("dash <<'EOF'", {}, []),
        ("su - app <<'EOF'", {"remote_shell": "bash"}, ["PL503"]),
        ("su -s /bin/bash app <<'EOF'", {}, ["PL503"]),
    ],
)
def test_the_body_is_in_the_dialect_of_the_shell_that_reads_it(opening, settings, codes):
    # PL503 is opt-in outside loops (--extend-select PL5): select it to see the dialect's effect.
    script = f'{opening}\necho "$x" | wc -c\nEOF\n'
    assert [f.code for f in lint_all(script, "outer.bash", extend_select=("PL5",), **settings)] == codes


def test_a_bash_body_gets_a_here_string_fix_and_it_runs(tmp_path):
    script = "x=hello\nbash <<'EOF'\nx=world\necho \"$x\" | wc -c\nEOF\n"
    fixed = fix_all(script, "outer.bash", unsafe=True, extend_select=("PL5",))
    assert b'wc -c <<< "$x"' in fixed
    assert_same_behaviour(script.encode(), fixed, tmp_path, "bash")


@pytest.mark.parametrize(
    ("opening", "after"),
    [
        ("cat << SCRIPT | ssh -T db sh", "ssh -T db sh << SCRIPT"),
        ("cat <<SCRIPT | sudo bash -s | cat -n", "sudo bash -s <<SCRIPT | cat -n"),
    ],
)
def test_a_here_document_piped_in_by_a_bare_cat_is_the_script_too(opening, after, tmp_path):
    # PL002 attaches the here-document to the shell; the fix in the body lands in the same pass.
    script = f"{SETUP}{opening}\ncat access.log | wc -l\nSCRIPT\necho done\n"
    assert [f.code for f in lint_all(script)] == ["PL002", "PL001"]
    assert_fixed_and_same(script, f"{SETUP}{after}\nwc -l < access.log\nSCRIPT\necho done\n", tmp_path, "dash")


@pytest.mark.parametrize(
    "opening", ["cat notes.txt << SCRIPT | sh", "cat << SCRIPT < words.txt | sh", "cat << SCRIPT | grep x | sh"]
)
def test_a_cat_that_sends_something_else_sends_no_script(opening):
    assert "PL001" not in [f.code for f in lint_all(f"{opening}\ncat access.log | wc -l\nSCRIPT\n")]
