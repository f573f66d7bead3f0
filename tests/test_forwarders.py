"""forwarders: the command a forwarder runs elsewhere, and whether its stdin goes along."""

from __future__ import annotations

import pytest

from pipelint.programs import command, forwarders
from pipelint.shell import syntax


def _forwarded(line: bytes) -> forwarders.Forwarded | None:
    root = syntax.parse(line).root_node
    node = next(n for n in syntax.walk(root) if n.type == "command")
    return forwarders.forwarded(command.read(node))


@pytest.mark.parametrize(
    ("line", "via", "program", "stdin"),
    [
        (b"docker exec -i C mysql shop", "docker exec", b"mysql", True),
        (b"docker exec -it -e A=1 C mysql", "docker exec", b"mysql", True),
        (b"docker exec C mysql", "docker exec", b"mysql", False),
        (b"podman exec --interactive C psql", "podman exec", b"psql", True),
        (b"docker compose exec -T db psql -U app", "docker compose exec", b"psql", True),
        (b"docker-compose exec db mysql", "docker compose exec", b"mysql", True),
        (b"kubectl exec -i P -- mysql shop", "kubectl exec", b"mysql", True),
        (b"kubectl --namespace prod exec P -c db -- psql", "kubectl exec", b"psql", False),
        (b"oc -n prod exec -i postgres-0 -- psql app", "oc exec", b"psql", True),
        (b"ssh host mysql db", "ssh", b"mysql", True),
        (b"ssh -p 22 host 'sudo -u postgres psql db'", "ssh", b"psql", True),
        (b"ssh -n host mysql", "ssh", b"mysql", False),
    ],
)
def test_forwarded(line, via, program, stdin):
    found = _forwarded(line)
    assert found is not None
    assert (found.via, found.program, found.stdin) == (via, program, stdin)


@pytest.mark.parametrize(
    "line", [b"docker ps", b"docker exec C", b"kubectl get pods", b"kubectl exec P mysql", b"ssh host", b"mysql shop"]
)
def test_not_forwarded(line):
    assert _forwarded(line) is None


def test_a_computed_inner_program_is_unknown():
    assert _forwarded(b'docker exec -i C "$tool"').program is None
