"""launchers.py: the command line `docker exec`, `kubectl exec`, `xargs`, `find -exec`, `flock`, `watch -x` launch."""

from __future__ import annotations

import pytest

from pipelint.programs import command
from pipelint.shell import syntax
from pipelint.programs.launchers import launches


def read(script: str) -> command.Command:
    root = syntax.parse(script.encode()).root_node
    return command.read(next(node for node in syntax.walk(root) if node.type == "command"))


def launched(script: str) -> list[tuple[str, str, bool, str]]:
    """(program, the launched words, reads stdin, substituted) for each launch."""
    return [
        (
            (launch.command.program or b"?").decode(),
            " ".join(syntax.text(word).decode() for word in launch.command.arguments),
            launch.stdin,
            launch.substituted.decode(),
        )
        for launch in launches(read(script))
    ]


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ("docker exec web sh -c 'x'", [("sh", "-c 'x'", False, "")]),
        ("docker exec -it -u root -w /srv web bash", [("bash", "", True, "")]),
        ("docker --context prod container exec --interactive -e A=1 web sh -s", [("sh", "-s", True, "")]),
        ("podman exec -i db psql shop", [("psql", "shop", True, "")]),
        ('docker exec "$container" sh -c x', [("sh", "-c x", False, "")]),
        ("docker exec web sudo -u app sh -c 'x'", [("sh", "-c 'x'", False, "")]),  # through its wrappers
        ("docker compose -f c.yml exec -T db sh -c 'x'", [("sh", "-c 'x'", True, "")]),
        ("docker compose exec -d db sh -c 'x'", [("sh", "-c 'x'", False, "")]),
        ("docker-compose exec --user app db sh", [("sh", "", True, "")]),
        ("kubectl exec -i -n prod api-1 -c app -- sh -c 'x'", [("sh", "-c 'x'", True, "")]),
        ("kubectl -n prod exec deploy/api -- bash -lc 'x'", [("bash", "-lc 'x'", False, "")]),
        ("oc exec --stdin pod -- sh", [("sh", "", True, "")]),
        ("xargs -0 -n 1 -P 4 sh -c 'x' _", [("sh", "-c 'x' _", False, "")]),
        ("xargs -I {} sh -c 'cat {}'", [("sh", "-c 'cat {}'", False, "{}")]),
        ("xargs -I% sh -c 'cat %'", [("sh", "-c 'cat %'", False, "%")]),
        ("xargs -i sh -c 'cat {}'", [("sh", "-c 'cat {}'", False, "{}")]),
        ("xargs --replace=@ sh -c 'cat @'", [("sh", "-c 'cat @'", False, "@")]),
        (
            "find . -name '*.gz' -exec sh -c 'a' _ {} \\; -execdir bash -c 'b' {} +",
            [("sh", "-c 'a' _ {}", False, "{}"), ("bash", "-c 'b' {}", False, "{}")],
        ),
        ("flock -w 5 /run/lock sh -c 'x'", [("sh", "-c 'x'", True, "")]),
        ("watch -x -n 1 sh -c 'x'", [("sh", "-c 'x'", False, "")]),
        ("runuser -u app -- sh -c 'x'", [("sh", "-c 'x'", True, "")]),
        ("chroot --userspec=app /srv/root sh -c 'x'", [("sh", "-c 'x'", True, "")]),
        ("setsid -f sh -c 'x'", [("sh", "-c 'x'", True, "")]),
    ],
)
def test_what_a_launcher_runs(script, expected):
    assert launched(script) == expected


@pytest.mark.parametrize(
    "script",
    [
        "docker ps",
        "docker run img sh -c 'x'",  # a new container: not `exec` (and not this work's)
        "docker exec web",  # no command
        'docker exec "-$flags" web sh -c x',  # a computed option: where the container is cannot be told
        "kubectl get pods",
        "xargs",  # echo, by default
        "find . -exec sh -c 'x'",  # no `;`: find refuses it
        "flock /run/lock -c 'x'",  # a script, not a command line (shell_runners.py)
        "flock 9",
        "chroot /srv/root",  # an interactive shell
        "watch 'x'",  # joined for sh -c (shell_runners.py)
        "sudo sh -c 'x'",  # a wrapper, which the command model sees through
    ],
)
def test_no_launch(script):
    assert launched(script) == []
