"""launchers.forwarded: the command a forwarder runs elsewhere, and whether its stdin goes along."""

from __future__ import annotations

import pytest
from harness import codes

from pipelint.programs import command
from pipelint.programs.launchers import Launch, forwarded
from pipelint.shell import syntax


def _forwarded(line: bytes) -> Launch | None:
    root = syntax.parse(line).root_node
    node = next(n for n in syntax.walk(root) if n.type == "command")
    return forwarded(command.read(node))


@pytest.mark.parametrize(
    ("line", "via", "program", "stdin"),
    [
        (b"docker exec -i C mysql shop", "docker exec", b"mysql", True),
        (b"docker exec -it -e A=1 C mysql", "docker exec", b"mysql", True),
        (b"docker exec C mysql", "docker exec", b"mysql", False),
        (b"docker exec -i --preserve-fds 1 db mysql", "docker exec", b"mysql", True),  # issue 24: one option table
        (b"docker -H tcp://h container exec -i C mysql", "docker exec", b"mysql", True),
        (b"podman exec --interactive C psql", "podman exec", b"psql", True),
        (b"docker compose exec -T db psql -U app", "docker compose exec", b"psql", True),
        (b"docker-compose exec db mysql", "docker-compose exec", b"mysql", True),
        (b"kubectl exec -i P -- mysql shop", "kubectl exec", b"mysql", True),
        (b"kubectl --namespace prod exec P -c db -- psql", "kubectl exec", b"psql", False),
        (b"kubectl exec P mysql", "kubectl exec", b"mysql", False),  # the old form without `--` still runs
        (b"oc -n prod exec -i postgres-0 -- psql app", "oc exec", b"psql", True),
        (b"ssh host mysql db", "ssh", b"mysql", True),
        (b"ssh -p 22 host 'sudo -u postgres psql db'", "ssh", b"psql", True),
        (b"ssh -n host mysql", "ssh", b"mysql", False),
    ],
)
def test_forwarded(line, via, program, stdin):
    found = _forwarded(line)
    assert found is not None
    assert (found.via, found.command.program, found.stdin) == (via, program, stdin)


@pytest.mark.parametrize(
    "line", [b"docker ps", b"docker exec C", b"kubectl get pods", b"ssh host", b"mysql shop", b"ssh h 'cd /x && mysql'"]
)
def test_not_forwarded(line):
    assert _forwarded(line) is None


def test_a_computed_inner_program_is_unknown():
    assert _forwarded(b'docker exec -i C "$tool"').command.program is None


@pytest.mark.parametrize(
    "line",
    [
        "cat dump.sql | docker exec -i --preserve-fds 1 db mysql shop\n",
        "cat dump.sql | docker --context prod exec -i db mysql shop\n",
    ],
)
def test_a_dump_into_a_container_is_an_import_whatever_the_options(line):
    # issue 24: forwarders.py kept its own `docker exec` table without --preserve-fds,
    # so this was PL001 "into docker". One table now reads both.
    assert codes(line) == ["PL004"]


def test_the_import_fix_through_docker_exec_runs_the_same(tmp_path):
    from harness import assert_same_behaviour, fix_all

    script = "cat dump.sql | docker exec -i --preserve-fds 1 db mysql shop\necho rc=$?\n"
    fixed = fix_all(script, "script.bash", unsafe=True)
    assert fixed == b"docker exec -i --preserve-fds 1 db mysql shop < dump.sql\necho rc=$?\n"
    outcome = assert_same_behaviour(script.encode(), fixed, tmp_path, "bash", inputs=())
    assert outcome.stdout.startswith(b"mysql [shop]\n") and outcome.stdout.endswith(b"rc=0\n")
