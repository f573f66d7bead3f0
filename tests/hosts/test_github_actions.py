"""GitHub Actions: `run:` scripts linted in place, fixes proven by running the step as GitHub does and by re-loading the YAML."""

from __future__ import annotations

import textwrap

import pytest
import yaml
from harness import assert_same_behaviour, placed_one
from host_helpers import check, fixed, located, where

from pipelint.embedded import hosts
from pipelint.shell.dialect import Dialect
from pipelint.finding import Edit

WORKFLOW = ".github/workflows/ci.yml"


# GitHub's default `bash -e {0}` sees every status (errexit): PL001's fix is unsafe in a step (issue 13
# class 10). These tests are about the host's mapping: they take unsafe fixes and
# compare the success path, the inputs there.

def workflow(steps: str, job: str = "runs-on: ubuntu-latest", top: str = "") -> str:
    """A workflow with one job whose steps are the given YAML (indented to fit)."""
    body = textwrap.indent(textwrap.dedent(steps).strip("\n"), "      ")
    return f"name: ci\non: push\n{top}jobs:\n  build:\n    {job}\n    steps:\n{body}\n"


def scripts(text: bytes):
    return hosts.GITHUB_ACTIONS.scan(text).regions


def assert_step_behaves_the_same(original: str, result: bytes, tmp_path) -> None:
    """The YAML loads to the same data apart from the scripts, and each changed script runs the same under `bash -eo pipefail`.

    Compared with every input there (what a safe fix keeps); with one taken away, behaviour may
    differ as each rule's document says, which the rules' own tests prove.
    """
    old, new = yaml.safe_load(original), yaml.safe_load(result)
    old_steps, new_steps = old["jobs"]["build"]["steps"], new["jobs"]["build"]["steps"]
    assert [{k: v for k, v in s.items() if k != "run"} for s in old_steps] == [
        {k: v for k, v in s.items() if k != "run"} for s in new_steps
    ]
    assert {k: v for k, v in old.items() if k != "jobs"} == {k: v for k, v in new.items() if k != "jobs"}
    for number, (was, now) in enumerate(zip(old_steps, new_steps)):
        if was.get("run") != now.get("run"):
            prelude = b"set -eo pipefail\n"  # GitHub: bash --noprofile --norc -eo pipefail {0}
            assert_same_behaviour(
                prelude + was["run"].encode(), prelude + now["run"].encode(), tmp_path / str(number), "bash", inputs=()
            )


def test_finding_in_a_block_scalar_points_at_its_line_and_column():
    text = workflow(
        """
        - uses: actions/checkout@v4
        - name: count errors
          run: |
            echo "é ${{ github.sha }}"
            cat access.log | grep -c 500
        """
    )
    assert located(check(WORKFLOW, text)) == [("PL001", 11, 11)]


@pytest.mark.parametrize(("before", "line_end"), [("", "\n"), ("\ufeff", "\n"), ("", "\r\n")])
def test_a_byte_order_mark_or_crlf_lines_keep_positions_and_fixes(before, line_end):
    steps = "- run: |\n    echo é\n    cat access.log | grep 500\n- run: cat words.txt | wc -l\n"
    text = before + workflow(steps).replace("\n", line_end)
    assert located(check(WORKFLOW, text)) == [("PL001", 9, 11), ("PL001", 10, 14)]
    expected = steps.replace("cat access.log | grep 500", "grep 500 < access.log").replace(
        "cat words.txt | wc -l", "wc -l < words.txt"
    )
    assert fixed(WORKFLOW, text, unsafe_fixes=True) == (before + workflow(expected).replace("\n", line_end)).encode()


def test_finding_in_a_plain_scalar():
    text = workflow("- run: echo é && cat access.log | grep 500")
    assert located(check(WORKFLOW, text)) == [("PL001", 7, 24)]


@pytest.mark.parametrize(
    ("steps", "expected"),
    [
        ("- run: |\n    cat access.log | grep -c 500\n", "- run: |\n    grep -c 500 < access.log\n"),
        ("- run: |-\n    echo start\n    cat data.csv | uniq\n", "- run: |-\n    echo start\n    uniq < data.csv\n"),
        ("- run: cat words.txt | uniq -u\n", "- run: uniq -u < words.txt\n"),
        (
            "- name: two steps\n  shell: bash\n  run: |\n    cat access.log | wc -l\n- run: cat data.csv | uniq\n",
            "- name: two steps\n  shell: bash\n  run: |\n    wc -l < access.log\n- run: uniq < data.csv\n",
        ),
    ],
)
def test_fix_keeps_the_workflow_and_what_the_step_does(steps, expected, tmp_path):
    text = workflow(steps)
    result = fixed(WORKFLOW, text, unsafe_fixes=True)
    assert result.decode() == workflow(expected)
    assert_step_behaves_the_same(text, result, tmp_path)


@pytest.mark.parametrize(
    "run",
    [
        "run: >\n    cat access.log |\n    grep 500\n",  # folded: its line breaks are not the script's
        "run: 'cat access.log | grep 500'\n",  # quoted
        'run: "cat access.log | grep 500"\n',
        "run: cat ${{ inputs.log }} | grep 500\n",  # the edit would write the placeholder
    ],
)
def test_no_fix_where_the_yaml_cannot_take_it(run):
    text = workflow("- " + run)
    (finding,) = check(WORKFLOW, text).findings
    assert finding.code == "PL001" and finding.fix is None
    assert "grep 500 <" in finding.message
    assert fixed(WORKFLOW, text) == text.encode()


def test_expressions_are_opaque_words_of_the_same_length():
    text = workflow("- run: |\n    echo ${{ github.sha }} | wc -c\n    cat ${{ inputs.file }}\n")
    (region,) = scripts(text.encode())
    assert region.text == b"echo _0" + b"_" * 15 + b" | wc -c\n" + b"cat _1" + b"_" * 16 + b"\n"
    assert region.outer_offset(5) is None and region.outer_offset(21) is None  # maps nowhere
    assert placed_one(region, Edit(5, 22, b"x")) is None
    assert region.outer_offset(0) == text.encode().index(b"echo ${{")


def test_a_folded_scalar_with_more_indented_lines_keeps_its_positions():
    # `>` folds `a` and `b` into one line but keeps the breaks around the more-indented line.
    text = workflow("- run: >\n    echo a\n    echo b &&\n      ls\n\n    cat access.log | grep 500\n")
    (region,) = scripts(text.encode())
    assert region.text == yaml.safe_load(text)["jobs"]["build"]["steps"][0]["run"].encode()
    (finding,) = check(WORKFLOW, text).findings
    assert where(check(WORKFLOW, text), finding) == (12, 11) and finding.fix is None


def test_a_rewrite_in_a_message_shows_the_expressions_not_their_placeholders():
    text = workflow("- run: cat ${{ inputs.log }} | grep ${{ inputs.code }}\n")
    (finding,) = check(WORKFLOW, text).findings
    assert finding.fix is None
    assert finding.message.startswith("`cat` only feeds ${{ inputs.log }} into grep")
    assert finding.message.endswith("`grep ${{ inputs.code }} < ${{ inputs.log }}`)")
    (nested,) = check(WORKFLOW, workflow("- run: sh -c 'cat ${{ inputs.f }} | grep b'\n")).findings
    assert "_" not in nested.message and "`grep b < ${{ inputs.f }}`" in nested.message


@pytest.mark.parametrize(
    ("setting", "expected"),
    [
        ("shell: bash", (Dialect.BASH, True, True)),
        ("shell: sh", (Dialect.SH, True, False)),
        ("shell: bash -e {0}", (Dialect.BASH, True, False)),
        ("shell: bash {0}", (Dialect.BASH, False, False)),
        ("", (Dialect.BASH, True, False)),  # unspecified: bash -e {0}
    ],
)
def test_shell_sets_dialect_errexit_and_pipefail(setting, expected):
    step = "- run: echo a\n" + (f"  {setting}\n" if setting else "")
    (region,) = scripts(workflow(step).encode())
    assert (region.dialect, "errexit" in region.options, "pipefail" in region.options) == expected


def test_defaults_apply_from_the_workflow_then_the_job():
    top = "defaults:\n  run:\n    shell: sh\n"
    job = "runs-on: ubuntu-latest\n    defaults:\n      run:\n        shell: bash"
    assert [r.dialect for r in scripts(workflow("- run: echo a", top=top).encode())] == [Dialect.SH]
    assert [r.dialect for r in scripts(workflow("- run: echo a", job=job, top=top).encode())] == [Dialect.BASH]


def test_a_job_in_a_container_without_a_shell_is_read_as_sh():
    job = "runs-on: ubuntu-latest\n    container: alpine:3"
    assert [r.dialect for r in scripts(workflow("- run: echo a", job=job).encode())] == [Dialect.SH]


def test_other_shells_and_windows_defaults_are_left_alone():
    steps = "- shell: pwsh\n  run: cat access.log | grep 500\n- shell: python\n  run: print(1)\n"
    assert check(WORKFLOW, workflow(steps)).findings == []
    windows = "runs-on: windows-latest"
    assert check(WORKFLOW, workflow("- run: cat access.log | grep 500", job=windows)).findings == []
    bash_on_windows = "- shell: bash\n  run: cat access.log | grep 500\n"
    assert len(check(WORKFLOW, workflow(bash_on_windows, job=windows)).findings) == 1


def test_a_runner_chosen_by_expression_may_be_windows_so_no_fix():
    text = workflow("- run: cat access.log | grep 500", job="runs-on: ${{ matrix.os }}")
    (finding,) = check(WORKFLOW, text).findings
    assert finding.fix is None


def test_composite_action():
    text = (
        "name: count\nruns:\n  using: composite\n  steps:\n    - shell: bash\n      run: cat access.log | grep -c 500\n"
    )
    report = check("action.yml", text, fix=True, unsafe_fixes=True)
    assert report.final_source.endswith(b"run: grep -c 500 < access.log\n")
    assert check("action.yml", "name: js\nruns:\n  using: node20\n  main: index.js\n").findings == []


def test_the_fixer_refuses_an_edit_after_which_the_yaml_reads_differently():
    text = workflow("- run: |\n    cat access.log | grep 500\n    echo done\n- run: echo a").encode()
    kind = hosts.GITHUB_ACTIONS
    line = text.index(b"cat access.log")
    plain = text.index(b"echo a")
    refused = [
        Edit.insert(line, b"  "),  # the first line more indented: the block's indentation changes
        Edit.insert(plain + 6, b" # b"),  # a comment in a plain scalar: the script loses its end
        Edit.insert(plain, b"'"),  # a quote: another scalar style, or no YAML at all
        Edit(text.index(b"ubuntu"), text.index(b"ubuntu") + 6, b"debian"),  # not a script
    ]
    for edit in refused:
        after = text[: edit.start] + edit.content + text[edit.end :]
        assert not hosts.keeps_host(kind, text, [edit], after), edit
    accepted = Edit(line, line + 3, b"tac")
    assert hosts.keeps_host(kind, text, [accepted], text.replace(b"cat access", b"tac access"))


SHARED = """\
on: push
jobs:
  bash:
    runs-on: ubuntu-latest
    steps:
      - shell: bash
        run: &count |
          echo "$GITHUB_REF" | wc -c
          cat access.log | grep -c 500
  sh:
    runs-on: ubuntu-latest
    steps:
      - shell: sh
        run: *count
"""


def test_a_script_shared_through_an_alias_is_reported_once_and_fixed_only_as_every_shell_allows():
    report = check(WORKFLOW, SHARED, select=("PL001", "PL503"), unsafe_fixes=True)
    assert located(report) == [("PL503", 8, 11), ("PL001", 9, 11)]
    here_string, redirect = report.findings
    assert here_string.fix is None and "YAML alias" in here_string.help  # `<<<` is no sh
    assert redirect.fix is not None
    result = fixed(WORKFLOW, SHARED, select=("PL001", "PL503"), unsafe_fixes=True)
    assert result.decode() == SHARED.replace("cat access.log | grep -c 500", "grep -c 500 < access.log")
    loaded = yaml.safe_load(result)
    assert loaded["jobs"]["bash"]["steps"][0]["run"] == loaded["jobs"]["sh"]["steps"][0]["run"]


def test_an_anchored_plain_scalar_maps_past_its_anchor():
    text = workflow("- run: &one cat access.log | grep 500\n- run: *one")
    assert located(check(WORKFLOW, text)) == [("PL001", 7, 19)]
    assert fixed(WORKFLOW, text, unsafe_fixes=True).decode() == text.replace("cat access.log | grep 500", "grep 500 < access.log")


def test_broken_yaml_is_a_parse_failure_at_its_place():
    text = "jobs:\n  build:\n    steps:\n      - run: echo a\n    - run: [\n"
    report = check(WORKFLOW, text)
    assert report.findings == [] and report.crashes == []
    (failure,) = report.parse_failures
    assert failure.start > 0


def test_names_of_workflows():
    for name in (".github/workflows/ci.yml", "repo/.github/workflows/release.yaml", "action.yml", "sub/action.yaml"):
        assert hosts.kind_of(name) is hosts.GITHUB_ACTIONS, name
    for name in (".github/workflows/sub/ci.yml", "workflows/ci.yml", ".github/dependabot.yml", "ci.yml"):
        assert hosts.kind_of(name) is None, name


SSH_ACTION = """
- uses: appleboy/ssh-action@v1.0.3
  with:
    host: ${{ secrets.HOST }}
    username: deploy
    script: |
      cd /srv/app
      cat access.log | grep -c 500
"""


def test_ssh_action_script_runs_remotely_as_posix_sh():
    """appleboy/ssh-action sends `script:` to the remote login shell: read as sh, output crossing the link."""
    (region,) = scripts(workflow(SSH_ACTION).encode())
    assert region.dialect is Dialect.SH and region.stdout_over_network and region.options == frozenset()
    assert "appleboy/ssh-action" in region.origin
    assert [f.code for f in check(WORKFLOW, workflow(SSH_ACTION)).findings] == ["PL001"]
    report = check(WORKFLOW, workflow(SSH_ACTION), fix=True, unsafe_fixes=True)
    assert b"      grep -c 500 < access.log\n" in report.final_source
    assert yaml.safe_load(report.final_source)["jobs"]["build"]["steps"][0]["with"]["host"] == "${{ secrets.HOST }}"


def test_ssh_action_script_stop_is_errexit_and_takes_no_fix():
    """`script_stop: true` checks every line's status (errexit); drone-ssh re-joins the trimmed lines: no edit."""
    text = workflow(SSH_ACTION.replace("    username: deploy\n", "    username: deploy\n    script_stop: true\n"))
    (region,) = scripts(text.encode())
    assert region.options == frozenset({"errexit"})
    (finding,) = check(WORKFLOW, text).findings
    assert finding.code == "PL001" and finding.fix is None


def test_ssh_action_transfer_shapes_are_read_there():
    steps = """
    - uses: appleboy/ssh-action@master
      with:
        script: gzip -c dump.sql | ssh -C backup 'cat > d.gz'
    """
    assert {f.code for f in check(WORKFLOW, workflow(steps)).findings} >= {"PL303"}


@pytest.mark.parametrize(
    "step",
    [
        # Other actions' inputs are not shell; an expression is not a script the file shows.
        "- uses: appleboy/scp-action@v0.1.7\n  with:\n    source: cat access.log | grep 500\n",
        "- uses: someone/ssh-action@v1\n  with:\n    script: cat access.log | grep 500\n",
        "- uses: appleboy/ssh-action@v1\n  with:\n    script: ${{ inputs.script }}\n",
        "- uses: appleboy/ssh-action@v1\n  with:\n    script_path: deploy.sh\n",
    ],
)
def test_other_actions_are_not_read(step):
    assert scripts(workflow(step).encode()) == []
