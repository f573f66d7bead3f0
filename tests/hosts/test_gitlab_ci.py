"""GitLab CI: job scripts (strings and lists) linted in place, fixes proven by running the job's script and re-loading the YAML."""

from __future__ import annotations

import pytest
import yaml
from cli_helpers import run_cli, text
from harness import assert_same_behaviour
from host_helpers import check, fixed, located

from pipelint.embedded import hosts
from pipelint.shell.dialect import Dialect

CI = ".gitlab-ci.yml"


# GitLab's `sh -e` sees every status (errexit): PL001's fix is unsafe in a step (issue 13
# class 10). These tests are about the host's mapping: they take unsafe fixes and
# compare the success path, the inputs there.


class Reference(yaml.YAMLObject):
    """GitLab's `!reference` tag, so that safe_load reads the files the tests write."""

    yaml_tag = "!reference"
    yaml_loader = yaml.SafeLoader

    @classmethod
    def from_yaml(cls, loader, node):
        return loader.construct_sequence(node)


def job_script(items) -> bytes:
    """What the runner runs for a script key: the items, one after the other, errexit on (GitLab's `set -e`)."""
    items = [items] if isinstance(items, str) else items
    return b"set -e\n" + "\n".join(item for item in items if isinstance(item, str)).encode() + b"\n"


def assert_jobs_behave_the_same(original: str, result: bytes, tmp_path) -> None:
    """The YAML loads to the same jobs apart from their scripts, and each changed script runs the same.

    Compared with every input there (what a safe fix keeps); with one taken away, behaviour may
    differ as each rule's document says, which the rules' own tests prove.
    """
    old, new = yaml.safe_load(original), yaml.safe_load(result)
    assert old.keys() == new.keys()
    for name in old:
        keys = ("before_script", "script", "after_script")
        if not isinstance(old[name], dict):
            assert old[name] == new[name]
            continue
        assert {k: v for k, v in old[name].items() if k not in keys} == {
            k: v for k, v in new[name].items() if k not in keys
        }
        for key in keys:
            if old[name].get(key) != new[name].get(key):
                assert_same_behaviour(
                    job_script(old[name][key]),
                    job_script(new[name][key]),
                    tmp_path / f"{name}-{key}",
                    "dash",
                    inputs=(),
                )


TEXT = """\
stages: [test]
default:
  before_script:
    - cat access.log | grep -c 500
.setup: &setup
  - echo setup
build:
  stage: test
  script:
    - *setup
    - cat data.csv | uniq
    - |
      for f in words.txt data.csv; do
        cat "$f" | wc -l
      done
    - 'cat "my file.txt" | wc -l'
    - !reference [.setup, script]
  after_script: cat words.txt | uniq -u
"""

# Each `cat` that only feeds one reader becomes a redirect; the quoted item keeps its text.
FIXED = (
    TEXT.replace("cat access.log | grep -c 500", "grep -c 500 < access.log")
    .replace("cat data.csv | uniq", "uniq < data.csv")
    .replace('cat "$f" | wc -l', 'wc -l < "$f"')
    .replace("cat words.txt | uniq -u", "uniq -u < words.txt")
)


def test_findings_point_at_each_item():
    assert located(check(CI, TEXT)) == [
        ("PL001", 4, 7),
        ("PL001", 11, 7),
        ("PL001", 14, 9),
        ("PL001", 16, 8),
        ("PL001", 18, 17),
    ]


def test_fix_keeps_the_file_and_what_the_jobs_do(tmp_path):
    result = fixed(CI, TEXT, unsafe_fixes=True)
    assert result.decode() == FIXED
    assert_jobs_behave_the_same(TEXT, result, tmp_path)


def test_a_quoted_item_keeps_its_finding_without_a_fix():
    quoted = [f for f in check(CI, TEXT).findings if f.fix is None]
    assert len(quoted) == 1 and 'wc -l < "my file.txt"' in quoted[0].message


def test_a_list_is_one_script_run_as_posix_sh_with_errexit():
    regions = hosts.GITLAB_CI.scan(TEXT.encode()).regions
    assert [r.text.count(b"\n") for r in regions] == [
        0,
        7,
        0,
    ]  # `before_script`; `script` (after the `before_script`: 5 items, one of 4 lines); `after_script`
    assert regions[1].text.startswith(b"cat access.log | grep -c 500\necho setup\ncat data.csv | uniq\nfor f in")
    assert {(r.dialect, "errexit" in r.options) for r in regions} == {(Dialect.SH, True)}


def test_an_anchored_script_is_linted_once():
    text = ".base:\n  script: &s\n    - cat data.csv | uniq\njob:\n  script: *s\n"
    assert located(check(CI, text)) == [("PL001", 3, 7)]


SHARED = """\
.count: &count sort words.txt | tee /dev/null | wc -l
plain:
  script:
    - *count
quiet:
  script:
    - tee() { command tee "$@" > /dev/null; }
    - *count
    - cat data.csv | uniq
"""


def test_an_item_shared_by_jobs_is_reported_once_and_fixed_only_where_every_job_allows(tmp_path):
    report = check(CI, SHARED, unsafe_fixes=True)
    # The job's own line after the shared one is linted too (the job is not skipped as seen before).
    assert located(report) == [("PL101", 1, 33), ("PL001", 9, 7)]
    shared, own = report.findings
    assert own.fix is not None
    assert shared.fix is None  # in `quiet`, tee is a function: removing the stage changes what runs
    assert "YAML alias" in shared.help
    result = fixed(CI, SHARED, unsafe_fixes=True)
    assert result.decode() == SHARED.replace("cat data.csv | uniq", "uniq < data.csv")
    assert_jobs_behave_the_same(SHARED, result, tmp_path)


def test_templates_are_gitlab_files_and_other_yaml_is_not():
    assert hosts.kind_of("templates/Deploy.gitlab-ci.yml") is hosts.GITLAB_CI
    assert hosts.kind_of(".gitlab-ci.yml") is hosts.GITLAB_CI
    for name in ("values.yml", ".gitlab/issue_templates/bug.md", "gitlab-ci.yml.bak"):
        assert hosts.kind_of(name) is None


BOMB = (  # 9 aliases of 9 aliases … 9 levels deep: 387 million items if each alias were expanded
    "a: &a [x, x, x, x, x, x, x, x, x]\n"
    + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 9)}]\n" for i in range(8))
    + "job:\n  script: *i\n"
)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "---\n",
        "spec:\n  inputs:\n    x: {}\n---\njob:\n  script: echo a\n",
        "job: [\n",
        "a: *missing\n",
        BOMB,
        "job:\n  script: " + "[" * 1000 + "]" * 1000 + "\n",
    ],
)
def test_odd_files_do_not_crash(text):
    report = check(CI, text)
    assert report.crashes == [] and report.findings == []


@pytest.mark.parametrize(
    "nesting",
    ["[" * 100_000 + "]" * 100_000, "- " * 60_000 + "x", "{a: " * 60_000 + "}" * 60_000],
)
def test_yaml_nested_past_what_the_composer_survives_is_a_parse_error(nesting, tmp_path):
    # libyaml's composer recursed into a segmentation fault at ~20-50k levels; a subprocess, so a
    # regression fails this test instead of killing the test run.
    (tmp_path / CI).write_text(f"job:\n  script:\n    - cat access.log | grep 500\nx: {nesting}\n")
    run = run_cli("check", "--output-format", "concise", str(tmp_path / CI))
    out, err = text(run)
    assert run.returncode == 1 and err == "", err
    assert ".gitlab-ci.yml:4:" in out and "parse-error" in out
