"""Issue 25, classes 4, 5 and 7: shell state from outside the linted text, aliased YAML, `set -e` read everywhere.

- class 4: a function of GitLab's `before_script` (same shell as `script`),
  `BASH_ENV` from a Dockerfile's `ENV` or a workflow's `env:`; `ENV`, which no
  non-interactive shell reads (proven below with dash, bash as sh, busybox);
- class 5: an anchored scalar used as a script and as a variable gets no edit;
- class 7: `builtin set -e`, `command set -e`, `\\set -e`, `'set' -e`, bash's
  `time set -e`, and `SHELLOPTS` exported to a `bash -c`, all read by the one
  reader of shell options.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest
import yaml
from harness import assert_same_behaviour, fix, fix_all, lint, lint_all, run_script
from hosts.host_helpers import check, fixed

# With the input missing, `wc` does not run: only where nothing sees the status is that safe.
MISSING_INPUT = "with the file missing or a directory, the pipeline's exit status changes"


def applicabilities(findings, code="PL001") -> list[str]:
    return [f.fix.applicability.value if f.fix else "none" for f in findings if f.code == code]


# Class 7.
@pytest.mark.parametrize(
    "turn_on", ["set -e", "builtin set -e", "command set -e", "command -p set -e", "\\set -e", "'set' -e", "time set -e"]
)
def test_every_way_to_run_set_turns_errexit_on(turn_on, tmp_path):
    script = f"{turn_on}\ncat missing.txt | wc -l > count.txt\necho after\n"
    (finding,) = [f for f in lint(script, "script.bash") if f.code == "PL001"]
    assert finding.fix.applicability.value == "unsafe" and MISSING_INPUT in finding.help
    before = run_script(script.encode(), tmp_path / "a", "bash")
    after = run_script(fix(script, "script.bash", unsafe=True), tmp_path / "b", "bash")
    assert before.stdout == b"after\n" and after.stdout == b""  # errexit ends the fixed script


@pytest.mark.parametrize("not_set", ["command -v set -e", "echo set -e", "builtin set +e"])
def test_words_that_do_not_turn_errexit_on(not_set, tmp_path):
    script = f"{not_set}\ncat missing.txt | wc -l > count.txt\necho after\n"
    assert applicabilities(lint(script, "script.bash")) == ["safe"]
    assert_same_behaviour(script.encode(), fix(script, "script.bash"), tmp_path, "bash")


INNER = "bash -c 'cat missing.txt | wc -l > count.txt; echo after'\necho end\n"


@pytest.mark.parametrize(
    ("outer", "shell"),
    [("set -e\nexport SHELLOPTS\n", "bash"), ("SHELLOPTS=errexit ", "dash"), ("env SHELLOPTS=errexit ", "bash")],
)
def test_shellopts_in_the_environment_of_bash_c(outer, shell, tmp_path):
    script = outer + INNER
    path = "outer.sh" if shell == "dash" else "outer.bash"
    assert applicabilities(lint_all(script, path)) == ["unsafe"]
    before = run_script(script.encode(), tmp_path / "a", shell)
    after = run_script(fix_all(script, path, unsafe=True), tmp_path / "b", shell)
    assert b"after" in before.stdout and b"after" not in after.stdout  # the inner bash has errexit


def test_bashopts_exported_to_bash_c():
    assert applicabilities(lint_all("shopt -s lastpipe\nexport BASHOPTS\n" + INNER, "outer.bash")) == ["unsafe"]


def test_without_shellopts_the_inner_fix_stays_safe(tmp_path):
    script = INNER.replace("missing.txt", "words.txt")
    assert applicabilities(lint_all(script, "outer.sh")) == ["safe"]
    fixed_text = fix_all(script, "outer.sh")
    assert_same_behaviour(script.encode(), fixed_text, tmp_path, "dash", path="outer.sh", rules=("PL001",))


# Class 4: BASH_ENV and ENV.
ENV_FILE = "wc() { echo 'not wc'; }\n"


@pytest.mark.parametrize(("shell", "reads"), [("bash", True), ("dash", False), ("bash --posix", False)])
def test_which_shells_read_bash_env(shell, reads, tmp_path):
    (tmp_path / "env.sh").write_text(ENV_FILE)
    environment = {**os.environ, "BASH_ENV": str(tmp_path / "env.sh"), "ENV": str(tmp_path / "env.sh")}
    out = subprocess.run([*shell.split(), "-c", "echo x | wc -l"], env=environment, capture_output=True, text=True).stdout
    assert out.strip() == ("not wc" if reads else "1")


@pytest.mark.parametrize("shell", ["dash", "busybox sh", "mksh", "ksh93", "bash-as-sh"])
def test_env_is_read_by_interactive_shells_only(shell, tmp_path):
    (tmp_path / "env.sh").write_text(ENV_FILE)
    if shell == "bash-as-sh":
        (tmp_path / "sh").symlink_to(shutil.which("bash"))
        argv = [str(tmp_path / "sh")]
    else:
        argv = shell.split()
        if shutil.which(argv[0]) is None:
            pytest.skip(f"{argv[0]} is not installed (apt-get); PyPI, all the test command reaches, has none")
    environment = {**os.environ, "ENV": str(tmp_path / "env.sh")}
    out = subprocess.run([*argv, "-c", "echo x | wc -l"], env=environment, capture_output=True, text=True).stdout
    assert out.strip() == "1"


DOCKERFILE = 'FROM debian\nSHELL ["/bin/bash", "-c"]\n{env}RUN cat words.txt | wc -l > count.txt; echo ok\n'


@pytest.mark.parametrize(
    ("env", "applicability", "why"),
    [
        ("", "safe", None),
        ("ENV BASH_ENV=/etc/env.sh\n", "unsafe", "`wc` may be a function"),
        ("ARG BASH_ENV\n", "unsafe", "`wc` may be a function"),
        ("ENV SHELLOPTS=errexit\n", "unsafe", MISSING_INPUT),
        ("ENV ENV=/etc/env.sh\n", "safe", None),  # read by interactive shells only
    ],
)
def test_dockerfile_environment(env, applicability, why):
    (finding,) = check("Dockerfile", DOCKERFILE.format(env=env)).findings
    assert finding.fix.applicability.value == applicability
    assert why is None or why in finding.help


def test_a_stage_built_from_another_keeps_its_environment():
    text = "FROM debian AS base\nENV BASH_ENV=/etc/env.sh\nFROM base\nSHELL [\"/bin/bash\", \"-c\"]\nRUN cat words.txt | wc -l > count.txt; echo ok\n"
    assert applicabilities(check("Dockerfile", text).findings) == ["unsafe"]


WORKFLOW = """\
on: push
{top}jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - shell: bash {{0}}
{step}        run: |
          cat words.txt | wc -l > count.txt
          echo ok
"""


@pytest.mark.parametrize(
    ("top", "step", "applicability"),
    [
        ("", "", "safe"),
        ("env:\n  BASH_ENV: /etc/env.sh\n", "", "unsafe"),
        ("", "        env:\n          BASH_ENV: ${{ inputs.env }}\n", "unsafe"),
        ("", "        env:\n          SHELLOPTS: errexit\n", "unsafe"),
        ("", "        env:\n          NAME: value\n", "safe"),
    ],
)
def test_workflow_env(top, step, applicability):
    report = check(".github/workflows/ci.yml", WORKFLOW.format(top=top, step=step))
    assert applicabilities(report.findings) == [applicability]


# GitLab: before_script runs in the script's shell.
GITLAB = """\
{default}job:
{own}  script:
    - cat words.txt | uniq > sorted.txt
    - echo ok
"""


@pytest.mark.parametrize(
    ("default", "own", "why"),
    [
        ("default:\n  before_script:\n    - 'uniq() { echo mine; }'\n", "", "`uniq` may be a function"),
        ("", "  before_script:\n    - 'uniq() { echo mine; }'\n", "`uniq` may be a function"),
        (".base:\n  before_script:\n    - 'uniq() { echo mine; }'\n", "  extends: .base\n", "`uniq` may be a function"),
        ("include: other.gitlab-ci.yml\n", "", "`uniq` may be a function"),  # a default there may define it
        ("", "  extends: .elsewhere\n", "`uniq` may be a function"),
    ],
)
def test_gitlab_before_script_is_read_before_script(default, own, why):
    (finding,) = [f for f in check(".gitlab-ci.yml", GITLAB.format(default=default, own=own)).findings if f.code == "PL001"]
    assert finding.fix.applicability.value == "unsafe" and why in finding.help


def test_gitlab_before_script_left_out_by_inherit():
    text = GITLAB.format(default="default:\n  before_script:\n    - 'uniq() { echo mine; }'\n", own="  inherit:\n    default: false\n")
    (finding,) = [f for f in check(".gitlab-ci.yml", text).findings if f.code == "PL001"]
    assert "may be a function" not in finding.help  # unsafe all the same: GitLab's `set -e` sees the status
    assert MISSING_INPUT in finding.help


def test_gitlab_after_script_runs_in_a_shell_of_its_own():
    text = "job:\n  before_script:\n    - 'uniq() { echo mine; }'\n  script:\n    - echo ok\n  after_script:\n    - cat words.txt | uniq > s.txt\n    - echo ok\n"
    (finding,) = [f for f in check(".gitlab-ci.yml", text).findings if f.code == "PL001"]
    assert "may be a function" not in finding.help


# Class 5: one YAML node, used as a script and as a variable.
ANCHORED = """\
.cmds: &copy cat words.txt | uniq
variables:
  COPY_CMD: *copy
job:
  script:
    - *copy
    - echo ok
"""


def test_an_anchor_used_as_a_variable_too_gets_no_edit():
    report = check(".gitlab-ci.yml", ANCHORED, unsafe_fixes=True)
    (finding,) = [f for f in report.findings if f.code == "PL001"]
    assert finding.fix is None
    result = fixed(".gitlab-ci.yml", ANCHORED, unsafe_fixes=True)
    assert yaml.safe_load(result)["variables"]["COPY_CMD"] == "cat words.txt | uniq"


def test_an_anchor_used_only_as_scripts_is_still_fixed():
    text = ANCHORED.replace("variables:\n  COPY_CMD: *copy\n", "")
    result = fixed(".gitlab-ci.yml", text, unsafe_fixes=True)
    assert b"uniq < words.txt" in result


def test_compose_anchor_used_in_environment_gets_no_edit():
    text = (
        "x-cmd: &cmd sh -c 'cat words.txt | uniq > s.txt; echo ok'\nservices:\n  app:\n    command: *cmd\n"
        "    environment:\n      CMD: *cmd\n"
    )
    assert all(f.fix is None for f in check("compose.yaml", text, unsafe_fixes=True).findings if f.code == "PL001")
    kept = text.replace("    environment:\n      CMD: *cmd\n", "")
    assert any(f.fix is not None for f in check("compose.yaml", kept, unsafe_fixes=True).findings if f.code == "PL001")
