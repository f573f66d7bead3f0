"""Issue 25, classes 2 and 3: where an inner script stops being code pipelint can read (`embedded/inner_code.py`).

Class 2: an expansion of the outer shell inside the inner text is code no one
can read. Class 3: a script read from standard input shares it with its
commands, and the first that reads stdin takes the rest of the script as data.
Each shape is run with the real shells, on both sides: the fix that stays safe
keeps what the outer script does; the one that became unsafe changes it.
"""

from __future__ import annotations

import pytest
from harness import assert_same_behaviour, fix_all, lint_all, run_script
from hosts.host_helpers import check, fixed, one_step_workflow

OUTER_CODE = "which the outer shell expands first: its value is code no one can read here"
STDIN_DATA = "the shell reads this script from standard input"


def pl001(script: str, path: str = "outer.sh") -> list[tuple[str, str | None]]:
    """(applicability, help) of each PL001 finding, inner scripts included."""
    return [(f.fix.applicability.value if f.fix else "none", f.help) for f in lint_all(script, path) if f.code == "PL001"]


# Class 2 — the reproducer: `-r | head -n 1 |` moves `< f` to another command.
REPRODUCER = """OPTS='-r | head -n 1 |'
sh -c "cat words.txt | sort -S 1M $OPTS cat -n"
echo end
"""


def test_an_outer_expansion_makes_the_inner_fix_unsafe(tmp_path):
    ((applicability, help_text),) = pl001(REPRODUCER)
    assert applicability in ("unsafe", "none") and OUTER_CODE in (help_text or "") or applicability == "none"
    assert fix_all(REPRODUCER, "outer.sh") == REPRODUCER.encode()
    by_hand = REPRODUCER.replace("cat words.txt | sort -S 1M $OPTS cat -n", "sort -S 1M $OPTS cat -n < words.txt")
    before = run_script(REPRODUCER.encode(), tmp_path / "a", "dash")
    after = run_script(by_hand.encode(), tmp_path / "b", "dash")
    assert before.stdout != after.stdout  # `< words.txt` went to `cat -n`


@pytest.mark.parametrize(
    ("script", "applicability"),
    [
        # An outer word the script set to one plain word is no unknown code.
        ('D=src\nsh -c "cd $D; cd ..; cat words.txt | uniq > sorted.txt; echo done"\necho end\n', "safe"),
        # A number is a number whatever it is.
        ('sh -c "echo $((6 * 7)); cat words.txt | uniq > sorted.txt"\necho end\n', "safe"),
        # A variable the script never sets, a command substitution: unknown code.
        ('sh -c "cd $D; cat words.txt | uniq > sorted.txt"\necho end\n', "unsafe"),
        ('sh -c "echo $(date +%Y); cat words.txt | uniq > sorted.txt"\necho end\n', "unsafe"),
        # A value that begins with `-` is an option of whatever it lands on.
        ('D=-n\nsh -c "echo $D; cat words.txt | uniq > sorted.txt"\necho end\n', "unsafe"),
    ],
)
def test_known_outer_words_and_unknown_code(script, applicability, tmp_path):
    ((found, help_text),) = pl001(script)
    assert found == applicability
    if applicability == "safe":
        assert_same_behaviour(script.encode(), fix_all(script, "outer.sh"), tmp_path, "dash", path="outer.sh")
    else:
        assert OUTER_CODE in help_text


def test_statements_before_the_outer_expansion_keep_their_safe_fix(tmp_path):
    script = 'sh -c "cat words.txt | uniq > a.txt; echo $X; cat data.csv | uniq > b.txt"\necho end\n'
    assert [found for found, _ in pl001(script)] == ["safe", "unsafe"]
    assert_same_behaviour(script.encode(), fix_all(script, "outer.sh"), tmp_path, "dash", path="outer.sh")


def test_a_quote_in_an_outer_value_turns_the_next_lines_into_data(tmp_path):
    """Why the rest of the inner script is unknown too, not only the statement holding the expansion."""
    script = "X=\"it's\"\nbash <<EOF\necho $X\ncat words.txt | uniq > sorted.txt\necho '\nEOF\n"
    assert [found for found, _ in pl001(script, "outer.bash")] == ["unsafe"]
    by_hand = script.replace("cat words.txt | uniq > sorted.txt", "uniq > sorted.txt < words.txt")
    before = run_script(script.encode(), tmp_path / "a", "bash")
    after = run_script(by_hand.encode(), tmp_path / "b", "bash")
    assert before.stdout != after.stdout  # the line was text echo printed


def workflow(first: str) -> str:
    return one_step_workflow("bash {0}", f"{first}\ncat words.txt | uniq > sorted.txt\necho end\n")


@pytest.mark.parametrize(("first", "applicability"), [("echo start", "safe"), ("echo ${{ inputs.name }}", "unsafe")])
def test_a_workflow_expression_is_unknown_code(first, applicability):
    report = check(".github/workflows/ci.yml", workflow(first))
    (finding,) = [f for f in report.findings if f.code == "PL001"]
    assert finding.fix.applicability.value == applicability
    if applicability == "unsafe":
        assert "${{ inputs.name }}" in finding.help


def test_an_expression_as_the_command_name():
    text = workflow("echo start").replace("cat words.txt | uniq", "cat words.txt | ${{ inputs.tool }}")
    report = check(".github/workflows/ci.yml", text)
    assert all(f.fix is None or f.fix.applicability.value == "unsafe" for f in report.findings)


def test_compose_interpolation_is_unknown_code():
    text = "services:\n  app:\n    command: [\"sh\", \"-c\", \"echo $$HOME ${TAG}; cat f | uniq > s\"]\n"
    (finding,) = [f for f in check("compose.yaml", text).findings if f.code == "PL001"]
    assert finding.fix is None or finding.fix.applicability.value == "unsafe"


# Class 3 — a script on stdin: the reader takes the next line.
STDIN_SCRIPT = "bash -s <<'EOF'\nhead -n 1 > line.txt\ncat words.txt | wc -l > count.txt\necho in\nEOF\necho end\n"


def test_after_a_stdin_reader_no_fix_is_safe(tmp_path):
    ((applicability, help_text),) = pl001(STDIN_SCRIPT)
    assert applicability == "unsafe" and STDIN_DATA in help_text and "`head -n 1` (line 1 of it)" in help_text
    assert fix_all(STDIN_SCRIPT, "outer.sh") == STDIN_SCRIPT.encode()
    by_hand = fix_all(STDIN_SCRIPT, "outer.sh", unsafe=True)
    before = run_script(STDIN_SCRIPT.encode(), tmp_path / "a", "dash")
    after = run_script(by_hand, tmp_path / "b", "dash")
    assert before.files["line.txt"] != after.files["line.txt"]  # head read the line the fix changed


@pytest.mark.parametrize(
    "opening",
    ["bash -s <<'EOF'", "sh <<'EOF'", "ssh db <<'EOF'", "ssh db bash -s <<'EOF'", "docker exec -i web sh <<'EOF'"],
)
def test_every_stdin_fed_shell(opening):
    script = f"{opening}\nread -r first\ncat words.txt | wc -l > count.txt\nEOF\necho end\n"
    assert [found for found, _ in pl001(script)] == ["unsafe"]


@pytest.mark.parametrize(
    "reader",
    [
        "mkdir -p out",  # never reads stdin (programs/table: NEVER_READS_STDIN)
        "cat data.csv > copy.csv",  # cat with a file reads the file
        "uniq < data.csv > sorted.csv",  # its own stdin
        "echo x | wc -l",  # a stage after `|`
        "while read -r l; do :; done < data.csv",  # the loop's own stdin
        "f() { head -n 1; }",  # defined, not run
    ],
)
def test_commands_that_read_no_stdin_keep_the_safe_fix(reader, tmp_path):
    script = f"bash -s <<'EOF'\n{reader}\ncat words.txt | wc -l > count.txt\necho in\nEOF\necho end\n"
    assert [found for found, _ in pl001(script)] == ["safe"]
    assert_same_behaviour(script.encode(), fix_all(script, "outer.sh"), tmp_path, "dash", path="outer.sh")


@pytest.mark.parametrize("reader", ["rm -i -f nothing.txt", "x=$(head -n 1)", "sudo mkdir -p out", "myfunc", "cat"])
def test_commands_that_may_read_stdin(reader):
    script = f"bash -s <<'EOF'\n{reader}\ncat words.txt | wc -l > count.txt\nEOF\necho end\n"
    assert [found for found, _ in pl001(script)] == ["unsafe"]


def test_a_dockerfile_here_document_fed_to_bash_is_on_stdin():
    fed = "FROM debian\nRUN <<EOF bash\nhead -n 1 > line\ncat f | wc -l > count.txt\necho ok\nEOF\n"
    alone = fed.replace("RUN <<EOF bash", "RUN <<EOF")  # BuildKit runs a lone body as `sh -c`
    assert [f.fix.applicability.value for f in check("Dockerfile", fed).findings] == ["unsafe"]
    assert [f.fix.applicability.value for f in check("Dockerfile", alone).findings] == ["safe"]
    assert fixed("Dockerfile", fed) == fed.encode()
