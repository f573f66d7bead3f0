"""Issue 25, classes 1 and 12: which shell a stage left alone runs in, per dialect and option.

bash (without `lastpipe`), dash and mksh run every stage of a pipeline in a
subshell; bash with `lastpipe` (job control off, as in a script), ksh93 and
zsh run the LAST one in the current shell. Removing the last stage
(`… | while …; done | cat > out` → `… | while …; done > out`) then moves the
stage before it into the current shell. Each test runs the real shells: the
fix pipelint calls safe keeps what the script does, the one it calls unsafe
changes it where the dialect or option says. ksh93, mksh and zsh are not
installed by the README's test command (PyPI has none of them): those tests
run where the shells are and are skipped, with that reason, elsewhere; the
bash and dash halves always run.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from cli_helpers import run_cli
from harness import assert_same_behaviour, fix, fix_all, lint, lint_all, run_script
from hosts.host_helpers import check, fixed, one_step_workflow

from pipelint.programs.table import Trait, has, program

LOOP = 'n=0\nseq 3 | while read -r l; do n=$l; done | cat > out.txt\necho "n=$n"\n'
LOOP_FIXED = 'n=0\nseq 3 | while read -r l; do n=$l; done > out.txt\necho "n=$n"\n'
CURRENT_SHELL = "the while loop would run in the current shell"


def pl003(source: str, path: str):
    (finding,) = [f for f in lint(source, path) if f.code == "PL003"]
    return finding


@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_without_lastpipe_removing_the_last_cat_is_safe(shell, tmp_path):
    path = "script.sh" if shell == "dash" else "script.bash"
    finding = pl003(LOOP, path)
    assert finding.fix.applicability.value == "safe"
    fixed_text = fix(LOOP, path)
    assert fixed_text.decode() == LOOP_FIXED
    outcome = assert_same_behaviour(LOOP.encode(), fixed_text, tmp_path, shell, path=path)
    assert outcome.stdout == b"n=0\n"


def test_lastpipe_on_the_interpreter_line():
    # The kernel passes `-O lastpipe` to bash as one word, which bash refuses: only `env -S` splits it.
    script = "#!/usr/bin/env -S bash -O lastpipe\n" + LOOP
    assert pl003(script, "deploy").fix.applicability.value == "unsafe"


@pytest.mark.parametrize("opening", ["shopt -s lastpipe\n", "builtin shopt -s lastpipe\n", "set -e; shopt -s lastpipe; set +e\n"])
def test_with_lastpipe_the_loop_would_run_in_the_current_shell(opening, tmp_path):
    script = opening + LOOP
    finding = pl003(script, "script.bash")
    assert finding.fix.applicability.value == "unsafe" and CURRENT_SHELL in finding.help
    assert fix(script, "script.bash") == script.encode()  # --fix leaves it
    before = run_script(script.encode(), tmp_path / "a", "bash")
    after = run_script(fix(script, "script.bash", unsafe=True), tmp_path / "b", "bash")
    assert (before.stdout, after.stdout) == (b"n=0\n", b"n=3\n")


def test_lastpipe_turned_off_again_is_still_asked_of_the_option_reader():
    # `shopt -u` is not followed (facts/shell_options): once on anywhere before, it may be on.
    script = "shopt -s lastpipe\nshopt -u lastpipe\n" + LOOP
    assert pl003(script, "script.bash").fix.applicability.value == "unsafe"


def test_inner_bash_with_lastpipe_on_its_command_line(tmp_path):
    inner = LOOP.replace('"', '\\"').replace("$", "\\$")
    safe = f'bash -c "{inner}"\necho end\n'
    unsafe = f'bash -O lastpipe -c "{inner}"\necho end\n'
    assert [f.fix.applicability.value for f in lint_all(safe, "outer.sh") if f.code == "PL003"] == ["safe"]
    (finding,) = [f for f in lint_all(unsafe, "outer.sh") if f.code == "PL003"]
    assert finding.fix.applicability.value == "unsafe" and CURRENT_SHELL in finding.help
    assert fix_all(unsafe, "outer.sh") == unsafe.encode()
    fixed_safe = fix_all(safe, "outer.sh")
    assert_same_behaviour(safe.encode(), fixed_safe, tmp_path, "dash", path="outer.sh")


@pytest.mark.parametrize(("shell", "applicability"), [("bash {0}", "safe"), ("bash -O lastpipe {0}", "unsafe")])
def test_a_workflow_shell_with_lastpipe(shell, applicability):
    report = check(".github/workflows/ci.yml", one_step_workflow(shell, LOOP))
    (finding,) = [f for f in report.findings if f.code == "PL003"]
    assert finding.fix.applicability.value == applicability


DOCKERFILE = 'FROM debian\nSHELL [{shell}]\nRUN n=0; seq 3 | while read -r l; do n=$l; done | cat > out.txt; echo "n=$n"\n'


@pytest.mark.parametrize(
    ("shell", "applicability"),
    [('"/bin/bash", "-c"', "safe"), ('"/bin/bash", "-O", "lastpipe", "-c"', "unsafe"), ('"/bin/ksh", "-c"', "unsafe")],
)
def test_a_dockerfile_shell_with_lastpipe_or_ksh(shell, applicability):
    text = DOCKERFILE.format(shell=shell)
    (finding,) = [f for f in check("Dockerfile", text).findings if f.code == "PL003"]
    assert finding.fix.applicability.value == applicability
    if applicability == "unsafe":
        assert fixed("Dockerfile", text) == text.encode()


def _run(shell: str, source: str, tmp_path: Path) -> str:
    return subprocess.run([shell, "-c", source], cwd=tmp_path, capture_output=True, text=True, timeout=30).stdout


@pytest.mark.parametrize(("path", "opening"), [("script.ksh", ""), ("deploy", "#!/bin/ksh\n"), ("deploy", "#!/usr/bin/env mksh\n")])
def test_a_ksh_script_is_not_read_as_sh(path, opening):
    # /bin/ksh is ksh93 on some systems and mksh on others: the fix must suit both.
    finding = pl003(opening + LOOP, path)
    assert finding.fix.applicability.value == "unsafe" and CURRENT_SHELL in finding.help


@pytest.mark.parametrize(("shell", "last_in_current_shell"), [("ksh93", True), ("mksh", False), ("zsh", True)])
def test_other_shells_run_the_last_stage_where_the_table_above_says(shell, last_in_current_shell, tmp_path):
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed (apt-get install ksh mksh zsh); PyPI, all the test command reaches, has none")
    before = _run(shell, LOOP, tmp_path)
    after = _run(shell, LOOP_FIXED, tmp_path)
    assert before == "n=0\n"
    assert after == ("n=3\n" if last_in_current_shell else "n=0\n")


@pytest.mark.parametrize("name", ["loop.zsh", "loop.sh"])
def test_a_zsh_script_gets_no_fix(name, tmp_path):
    # zsh runs the last stage here, like ksh93; pipelint never lints a zsh script (`dialect.SHELLS`).
    script = tmp_path / name
    script.write_text("#!/bin/zsh\n" + LOOP if name.endswith(".sh") else LOOP)
    run_cli("check", "--fix", str(script), cwd=tmp_path)
    assert script.read_text().endswith(LOOP)


# Class 12: a builtin that acts on the shell, fed by `cat`.
COMPLETE = "cat words.txt | complete -W x foo\ncomplete -p foo\necho end\n"


def test_a_state_builtin_gets_no_safe_fix(tmp_path):
    (finding,) = [f for f in lint(COMPLETE, "script.bash") if f.code == "PL001"]
    assert finding.fix.applicability.value == "unsafe" and "`complete` would run in the current shell" in finding.help
    before = run_script(COMPLETE.encode(), tmp_path / "a", "bash")
    after = run_script(fix(COMPLETE, "script.bash", unsafe=True), tmp_path / "b", "bash")
    assert b"complete -W 'x' foo" not in before.stdout and b"complete -W 'x' foo" in after.stdout


def test_a_builtin_that_only_prints_keeps_its_safe_fix(tmp_path):
    script = "cat words.txt | compgen -W 'alpha beta' -- al\necho end\n"
    (finding,) = [f for f in lint(script, "script.bash") if f.code == "PL001"]
    assert finding.fix.applicability.value == "safe"
    assert_same_behaviour(script.encode(), fix(script, "script.bash"), tmp_path, "bash")


@pytest.mark.parametrize("shell", ["bash", "dash", "ksh93", "mksh"])
def test_every_builtin_of_each_shell_is_in_the_table_or_known_to_leave_the_shell_alone(shell):
    """A builtin the table does not know is read as a program: nothing it does escapes a subshell."""
    lists = {
        "bash": ["bash", "-c", "enable -a"],
        "dash": None,  # dash cannot list them: its manual's list
        "ksh93": ["ksh93", "-c", "builtin"],
        "mksh": None,
    }
    if lists[shell] is not None and shutil.which(lists[shell][0]) is None:
        pytest.skip(f"{shell} is not installed (apt-get install ksh); PyPI, all the test command reaches, has none")
    if shell == "dash":
        names = "alias bg break cd chdir command continue echo eval exec exit export false fg getopts hash jobs kill local printf pwd read readonly return set shift test times trap true type ulimit umask unalias unset wait".split()
    elif shell == "mksh":
        names = "alias bg bind break builtin cat cd command continue echo eval exec exit export false fc fg getopts global jobs kill let print pwd read readonly realpath rename return set shift sleep source suspend test times trap true typeset ulimit umask unalias unset wait whence".split()
    else:
        output = subprocess.run(lists[shell], capture_output=True, text=True, check=True).stdout
        names = [line.split()[-1].rsplit("/", 1)[-1] for line in output.splitlines() if line.strip()]
    # Builtins whose work ends with them: they print, test or run a program, and keep nothing in the shell.
    leave_alone = {
        "echo", "printf", "print", "true", "false", "test", "[", ":", "pwd", "type", "whence", "help", "compgen",
        "caller", "times", "logout", "suspend", "command", "builtin", "cat", "sleep", "realpath", "rename",
        "getconf", "basename", "dirname", "chmod", "cmp", "cut", "head", "mkdir", "ln", "mktemp", "rmdir", "stty",
        "tee", "uname", "wc", "sync", "logname", "date", "paste", "tail", "readlink", "uniq", "tty", "expr", "id",
        "od", "sum", "comm", "chgrp", "chown", "fds", "fold", "getopts", "hist", "stop", "login", "newgrp",
        "pids", "poll", "mkfifo", "cp", "mv", "rm", "sha2sum", "md5sum", "sha1sum", "sha256sum", "sha512sum",
        "shasum", "sha224sum", "sha384sum", "dlls", "vmstate", "pathchk", "functions",
    }  # fmt: skip
    unknown = sorted(name for name in names if name not in leave_alone and program(name.encode()) is program(b"\0"))
    assert not unknown, f"{shell} builtins missing from programs/table.py: {unknown}"
    assert has(b"complete", Trait.CHANGES_SHELL_STATE) and has(b"kill", Trait.CHANGES_SHELL_STATE)
