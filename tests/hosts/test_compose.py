"""Docker Compose files: the scripts services run (`sh -c` commands, CMD-SHELL health checks), fixed in place."""

from __future__ import annotations

import shlex

import pytest
import yaml
from harness import assert_same_behaviour
from host_helpers import check, fixed, located

from pipelint.embedded import hosts
from pipelint.embedded.hosts.compose import _words
from pipelint.shell.dialect import Dialect

COMPOSE = "compose.yaml"

TEXT = """\
x-probe: &probe
  healthcheck:
    test: cat access.log | grep -q 200
services:
  web:
    image: nginx
    command: sh -c 'cat access.log | grep 500'
  api:
    image: python
    command: bash -c "cat data.csv | uniq"
  worker:
    image: debian
    entrypoint: ["/bin/sh", "-c"]
    command:
      - |
        cat words.txt | uniq -u
        echo done
  db:
    image: postgres
    healthcheck:
      test: ["CMD-SHELL", "cat words.txt | wc -l"]
  probed:
    <<: *probe
    image: busybox
  plain:
    image: alpine
    command: cat access.log | grep 500
"""


def scripts_of(text: str) -> dict[str, str]:
    """What each service's shell runs, read independently of pipelint: `sh -c`'s operand, or a CMD-SHELL test."""
    found = {}
    for name, service in yaml.safe_load(text)["services"].items():
        argv = list(service.get("entrypoint") or [])
        command = service.get("command")
        argv += shlex.split(command) if isinstance(command, str) else list(command or [])
        if argv and argv[0].rsplit("/", 1)[-1] in ("sh", "bash") and "-c" in argv:
            found[f"{name} command"] = argv[argv.index("-c") + 1]
        test = (service.get("healthcheck") or {}).get("test")
        if isinstance(test, str):
            found[f"{name} test"] = test
        elif isinstance(test, list) and test[:1] == ["CMD-SHELL"]:
            found[f"{name} test"] = test[1]
    return found


def assert_services_behave_the_same(original: str, result: bytes, tmp_path) -> None:
    """The file loads to the same services apart from their scripts, and each changed script runs the same."""
    old, new = yaml.safe_load(original), yaml.safe_load(result)

    def without_scripts(services: dict) -> dict:
        return {
            name: {k: v for k, v in service.items() if k not in ("command", "entrypoint", "healthcheck")}
            for name, service in services.items()
        }

    assert without_scripts(old["services"]) == without_scripts(new["services"])
    before, after = scripts_of(original), scripts_of(result.decode())
    assert before.keys() == after.keys()
    for key in before:
        if before[key] != after[key]:
            folder = tmp_path / key.replace(" ", "-")
            assert_same_behaviour(before[key].encode(), after[key].encode(), folder, "dash", inputs=())


def test_findings_point_at_each_script_and_never_at_a_command_no_shell_runs():
    assert located(check(COMPOSE, TEXT)) == [
        ("PL001", 3, 11),  # the probe, through the merge into `probed`
        ("PL001", 7, 21),
        ("PL001", 10, 23),
        ("PL001", 16, 9),
        ("PL001", 21, 28),
    ]  # `plain` runs `cat` with the words `|`, `grep`, `500`: no pipeline


def test_the_scripts_are_what_compose_hands_the_shell():
    regions = hosts.COMPOSE.scan(TEXT.encode()).regions
    texts = [region.text for region in regions]
    assert texts == [
        b"cat access.log | grep 500",
        b"cat data.csv | uniq",
        b"cat words.txt | uniq -u\necho done\n",
        b"cat words.txt | wc -l",
        b"cat access.log | grep -q 200",
    ]
    assert [region.dialect for region in regions] == [Dialect.SH, Dialect.BASH, Dialect.SH, Dialect.SH, Dialect.SH]


def test_fix_keeps_the_file_and_what_the_services_run(tmp_path):
    result = fixed(COMPOSE, TEXT, unsafe_fixes=True)
    assert result.decode() == (
        TEXT.replace("cat access.log | grep -q 200", "grep -q 200 < access.log")
        .replace("sh -c 'cat access.log | grep 500'", "sh -c 'grep 500 < access.log'")
        .replace('bash -c "cat data.csv | uniq"', 'bash -c "uniq < data.csv"')
        .replace("cat words.txt | uniq -u", "uniq -u < words.txt")
    )  # the quoted flow item keeps its finding, without a fix
    assert_services_behave_the_same(TEXT, result, tmp_path)


def test_dollars_are_compose_s_first():
    text = "services:\n  a:\n    command: sh -c 'cat $$LOG | grep ${PATTERN}'\n"
    (region,) = hosts.COMPOSE.scan(text.encode()).regions
    assert region.text.startswith(b"cat $LOG | grep _0________")  # `$$` is one `$`; `${PATTERN}` Compose's
    (finding,) = check(COMPOSE, text).findings
    assert finding.fix is None  # `< "$LOG"` would be written as `$LOG`, which Compose would interpolate
    assert "${PATTERN}" in finding.message


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("sh -c 'cat f | wc'", ["sh", "-c", "cat f | wc"]),
        ('sh -c "a \\"b\\" \\$x"', ["sh", "-c", 'a "b" $x']),
        ("sh -c x ; rm -rf /", ["sh", "-c", "x"]),  # the line ends at an unquoted `;`
        ("echo a 2>/dev/null", ["echo", "a"]),  # and a descriptor's digits are no word
        ("a '' b", ["a", "", "b"]),
        ("a\\tb \\n", ["a\tb", "\n"]),
        ("sh -c 'x", None),  # unclosed: Compose refuses it
        ("echo (x)", None),
    ],
)
def test_command_strings_split_as_go_shellwords_splits_them(line, words):
    found = _words(line.encode())
    assert (None if found is None else [bytes(b for b, _, _ in word).decode() for word in found]) == words


def test_compose_file_names():
    for name in ("compose.yaml", "compose.yml", "docker-compose.yml", "docker-compose.override.yaml", "compose.prod.yml"):
        assert hosts.kind_of(f"deploy/{name}") is hosts.COMPOSE, name
    for name in ("compose.yaml.orig", "my-compose.yml", "composer.yaml", "compose.json"):
        assert hosts.kind_of(name) is None, name
    assert hosts.kind_of(None, "dockercompose") is hosts.COMPOSE


@pytest.mark.parametrize(
    "text",
    [
        "",
        "services:\n",
        "services: [a, b]\n",
        "services:\n  a:\n    command: [1, 2]\n",
        "services:\n  a:\n    command: sh -c 'never closed\n",
        "services:\n  a:\n    entrypoint: null\n    command: sh -c 'cat f | wc -l'\n",
        "services:\n  a:\n    healthcheck:\n      test: [NONE]\n",
        "services: {a: {command: [sh, -c]}}\n",
        "services:\n  a: [\n",
    ],
)
def test_odd_files_do_not_crash(text):
    report = check(COMPOSE, text)
    assert report.crashes == []
