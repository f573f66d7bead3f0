"""Commands that run another command elsewhere and may hand it their standard input.

`docker exec -i C mysql shop`, `docker compose exec -T db psql`, `kubectl exec
-i P -- mysql`, `ssh host mysql db`: the program that reads the pipe is the
inner one, in a container or on another machine. `forwarded(command)` gives
its words and whether stdin reaches it at all: `docker exec` and `kubectl
exec` pass stdin on only with `-i`, `ssh` unless `-n` or `-f`; compose's exec
keeps stdin open by default.

PL004 and PL203 ask this to see a dump import through a forwarder; the
embedded-shell work can lint the inner words as the command they are.
"""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

from pipelint.shell import syntax
from pipelint.programs.command import Command, split_arguments
from pipelint.programs.table import WRAPPERS, OptionSpec
from pipelint.programs.remote_commands import parse_ssh


@dataclass(frozen=True)
class Forwarded:
    via: str  # "docker exec", "kubectl exec", "ssh"
    words: tuple[Node, ...]  # the inner command's words (ssh's remote shell splits them again)
    stdin: bool  # the forwarder hands its standard input to the inner command

    @property
    def program(self) -> bytes | None:
        """The inner program's basename, past `sudo`-style wrappers: `sudo -u pg psql` → psql."""
        words = [w for word in self.words for w in (_value(word) or b"\0").split()]
        takes_value = ""  # short options of the wrapper being skipped that take the next word
        skip_next = False
        for word in words:
            if word == b"\0":
                return None  # computed
            if skip_next:
                skip_next = False
                continue
            if word.startswith(b"-"):
                skip_next = len(word) == 2 and word[1:].decode("latin-1") in takes_value
                continue
            if b"=" in word:
                continue  # `env VAR=x`
            if word in WRAPPERS:
                takes_value = WRAPPERS[word].options.short_with_value
                continue
            return syntax.basename(word)
        return None


def _value(word: Node) -> bytes | None:
    return syntax.literal_value(word)


def _long(*names: str) -> frozenset[str]:
    return frozenset(names)


_DOCKER_EXEC = OptionSpec(
    short_with_value="euw",
    long_with_value=_long("--env", "--env-file", "--user", "--workdir", "--detach-keys"),
    options_end_at_operand=True,
)
_COMPOSE_EXEC = OptionSpec(
    short_with_value="euw", long_with_value=_long("--env", "--user", "--workdir", "--index"), options_end_at_operand=True
)
_KUBECTL_EXEC = OptionSpec(
    short_with_value="cnf",
    long_with_value=_long("--container", "--namespace", "--context", "--filename", "--kubeconfig", "--pod-running-timeout"),
)


def _container_exec(words: tuple[Node, ...], spec: OptionSpec, via: str, default_stdin: bool) -> Forwarded | None:
    """`exec [options] CONTAINER CMD…` as docker and compose spell it."""
    split = split_arguments(words, spec, stop_at_operand=True)
    if not split.exact or split.stopped_at is None:
        return None
    inner = words[split.stopped_at + 1 :]
    stdin = default_stdin or any(o.name in ("-i", "--interactive") for o in split.options)
    return Forwarded(via, tuple(inner), stdin) if inner else None


def _after_global_options(words: tuple[Node, ...], subcommand: bytes) -> tuple[Node, ...]:
    """`kubectl -n prod exec …` → the words from `exec` on; () when the subcommand is another."""
    split = split_arguments(words, _KUBECTL_EXEC, stop_at_operand=True)
    if split.stopped_at is None or _value(words[split.stopped_at]) != subcommand:
        return ()
    return words[split.stopped_at :]


def _kubectl_exec(words: tuple[Node, ...], via: str) -> Forwarded | None:
    """`kubectl exec [-i] POD [-c C] -- CMD…` (or `oc exec`)."""
    dashes = [i for i, word in enumerate(words) if _value(word) == b"--"]
    if not dashes:
        return None
    split = split_arguments(words[1 : dashes[0]], _KUBECTL_EXEC)
    if not split.exact:
        return None
    stdin = any(o.name in ("-i", "--stdin") for o in split.options)
    inner = words[dashes[0] + 1 :]
    return Forwarded(via, tuple(inner), stdin) if inner else None


def forwarded(command: Command | None) -> Forwarded | None:
    """The command another one runs elsewhere, or None when command forwards nothing (or cannot be read)."""
    if command is None or command.program is None:
        return None
    words = command.arguments
    first = [_value(word) for word in words[:2]]
    program = command.program
    if program in (b"docker", b"podman") and first[:1] == [b"exec"]:
        return _container_exec(words[1:], _DOCKER_EXEC, f"{program.decode()} exec", False)
    if program in (b"docker", b"podman") and first == [b"compose", b"exec"]:
        return _container_exec(words[2:], _COMPOSE_EXEC, "docker compose exec", True)
    if program in (b"docker-compose", b"podman-compose") and first[:1] == [b"exec"]:
        return _container_exec(words[1:], _COMPOSE_EXEC, "docker compose exec", True)
    if program in (b"kubectl", b"oc"):  # OpenShift's oc takes kubectl's words
        return _kubectl_exec(_after_global_options(words, b"exec"), f"{program.decode()} exec")
    ssh = parse_ssh(command)
    if ssh is not None and ssh.remote:
        return Forwarded("ssh", ssh.remote, not ssh.has("-n", "-f"))
    return None
