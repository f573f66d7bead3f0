"""Commands that launch another command line given as their own words.

`docker exec C sh -c '…'`, `kubectl exec P -- sh -c '…'`, `xargs sh -c '…'`,
`find … -exec sh -c '…' _ {} \\;`, `flock FILE sh -c '…'`, `runuser -u U --
sh -c '…'`, `chroot DIR sh -c '…'`, `setsid sh -c '…'` and `watch -x …`
each run a command line written after their options. `launches(command)`
says which, so that `shell_runners.py` can read it like any command and find
the script it runs.

The command model (command.py) does not see through them as it sees through
`sudo`: what they launch runs somewhere else (a container, a pod), once per
input line or per file, or with other input (xargs gives its command
/dev/null), so rules reading the outer command must keep seeing `docker`,
`xargs` or `find`.

`forwarded(command)` answers the narrower question the dump-import rules ask:
which command runs elsewhere (a container, a pod, another machine) with
this command's standard input, if it hands its stdin on at all.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tree_sitter import Node

from pipelint.shell import syntax
from pipelint.programs import command as commands
from pipelint.programs.command import Command, read_words, split_arguments
from pipelint.programs.remote_commands import parse_ssh
from pipelint.programs.table import COMPOSE, COMPOSE_EXEC, DOCKER_EXEC, Trait, has


@dataclass(frozen=True)
class Launch:
    command: Command  # the launched command line, read through its own wrappers
    via: str  # how it is launched, for messages: "docker exec"
    stdin: bool  # it reads the launcher's stdin (`docker exec -i`): a here-document reaches it
    substituted: bytes = b""  # text the launcher replaces in its words first (`{}`)
    # What becomes of the launched command's exit status: the launcher's own (PASSED:
    # docker exec, xargs as zero or not), acted on (SEEN: `find -exec … \; -print` runs
    # -print only where it is zero), or nothing (DROPPED: a last `find -exec … \;`).
    status: str = "passed"


PASSED, SEEN, DROPPED = "passed", "seen", "dropped"


def _literal(node: Node | None) -> bytes | None:
    return None if node is None else syntax.literal_value(node)


def _docker(command: Command) -> list[Launch]:
    """`docker [opts] [container] exec [opts] C CMD…`, `docker compose … exec …` (podman alike)."""
    words = list(command.operands)
    if words and _literal(words[0]) == b"container":
        words = words[1:]
    if words and _literal(words[0]) == b"compose":
        return _compose(command, words[1:], "docker compose exec")
    if not words or _literal(words[0]) != b"exec":
        return []
    split = split_arguments(words[1:], DOCKER_EXEC)
    if not split.exact or len(split.operands) < 2:
        return []
    stdin = any(option.name in ("-i", "--interactive") for option in split.options)
    return _launch(command, split.operands[1:], f"{_name(command)} exec", stdin)


def _compose(command: Command, words: Sequence[Node], via: str) -> list[Launch]:
    """`[global opts] exec [opts] SERVICE CMD…`; compose exec passes its stdin on unless -d."""
    split = split_arguments(words, COMPOSE)
    if not split.exact or not split.operands or _literal(split.operands[0]) != b"exec":
        return []
    split = split_arguments(split.operands[1:], COMPOSE_EXEC)
    if not split.exact or len(split.operands) < 2:
        return []
    stdin = not any(option.name in ("-d", "--detach") for option in split.options)
    return _launch(command, split.operands[1:], via, stdin)


def _docker_compose(command: Command) -> list[Launch]:
    return _compose(command, command.arguments, f"{_name(command)} exec")


def _kubectl(command: Command) -> list[Launch]:
    """`kubectl [flags] exec [flags] POD [--] CMD…`: flags may come anywhere before `--`."""
    operands = command.operands
    if len(operands) < 3 or _literal(operands[0]) != b"exec" or not command.exact:
        return []
    return _launch(command, operands[2:], f"{_name(command)} exec", command.has("-i", "--stdin"))


def _xargs(command: Command) -> list[Launch]:
    """`xargs [opts] CMD…`; with -I R (or -i, --replace) R in the words is each input item."""
    if not command.exact:
        return []
    return _launch(command, command.operands, "xargs", False, _xargs_replacement(command))


def _xargs_replacement(command: Command) -> bytes:
    for option in reversed(command.options):
        if option.name == "-I" and option.value:
            return option.value
        if option.name == "--replace":
            return option.value or b"{}"
        if option.name == "-i":
            written = _literal(option.node) or b""
            return written[2:] if written.startswith(b"-i") and len(written) > 2 else b"{}"
    return b""


# find's actions that run a command, and the words that end one (`\;` is the word `\;` to tree-sitter).
_FIND_ACTIONS = frozenset({b"-exec", b"-execdir", b"-ok", b"-okdir"})
_FIND_END = frozenset({b"\\;", b"';'", b'";"', b";"})


def _find(command: Command) -> list[Launch]:
    """Each `-exec CMD… ;` / `-exec CMD… {} +` of a find: GNU find replaces `{}` anywhere in the words."""
    launches: list[Launch] = []
    words = command.arguments
    index = 0
    while index < len(words):
        action = _literal(words[index])
        index += 1
        if action not in _FIND_ACTIONS:
            continue
        start = index
        while index < len(words) and not _ends_find_command(words, index):
            index += 1
        if index < len(words):  # a command without its `;` or `+` is find's error, not a command
            via = f"find {action.decode()}"  # type: ignore[union-attr]
            launches += _launch(command, words[start:index], via, False, b"{}", _find_status(words, index))
        index += 1
    return launches


def _find_status(words: Sequence[Node], end: int) -> str:
    """`… {} +`: find exits non-zero if a run failed; `… \\;`: the status is the action's truth, seen only by what follows."""
    if syntax.text(words[end]) == b"+":
        return PASSED
    return SEEN if end + 1 < len(words) else DROPPED


def _ends_find_command(words: Sequence[Node], index: int) -> bool:
    written = syntax.text(words[index])
    if written in _FIND_END:
        return True
    return written == b"+" and index > 0 and _literal(words[index - 1]) == b"{}"


def _flock(command: Command) -> list[Launch]:
    """`flock [opts] FILE CMD…` (`flock FILE -c CMD` hands CMD to a shell: shell_runners.py)."""
    operands = command.operands
    if len(operands) < 2 or not command.exact or _literal(operands[1]) in (b"-c", b"--command"):
        return []
    return _launch(command, operands[1:], "flock", True)


def _runuser(command: Command) -> list[Launch]:
    """`runuser -u USER -- CMD…` runs CMD as USER without a shell (without -u it is `su`: shell_runners.py)."""
    if not command.has("-u", "--user") or not command.exact:
        return []
    return _launch(command, command.operands, "runuser -u", True)


def _chroot(command: Command) -> list[Launch]:
    """`chroot [opts] NEWROOT CMD…`: CMD runs with another root directory."""
    operands = command.operands
    if len(operands) < 2 or not command.exact:
        return []
    return _launch(command, operands[1:], "chroot", True)


def _setsid(command: Command) -> list[Launch]:
    """`setsid [-c] [-f] [-w] CMD…`: CMD runs in a new session."""
    return _launch(command, command.operands, "setsid", True) if command.exact else []


def _watch(command: Command) -> list[Launch]:
    """`watch -x CMD…` runs the words as they are (without -x it joins them for `sh -c`)."""
    if not command.has("-x", "--exec") or not command.exact:
        return []
    return _launch(command, command.operands, "watch -x", False)


def _launch(
    command: Command, words: Sequence[Node], via: str, stdin: bool, substituted: bytes = b"", status: str = PASSED
) -> list[Launch]:
    launched = read_words(command.node, words)
    return [] if launched is None else [Launch(launched, via, stdin, substituted, status)]


LAUNCHERS: dict[bytes, Callable[[Command], list[Launch]]] = {
    b"docker": _docker,
    b"podman": _docker,
    b"docker-compose": _docker_compose,
    b"podman-compose": _docker_compose,
    b"kubectl": _kubectl,
    b"oc": _kubectl,
    b"xargs": _xargs,
    b"find": _find,
    b"flock": _flock,
    b"runuser": _runuser,
    b"chroot": _chroot,
    b"setsid": _setsid,
    b"watch": _watch,
}


def launches(command: Command) -> list[Launch]:
    """The command lines command launches (find may launch several); [] for any other command."""
    reader = LAUNCHERS.get(command.program or b"")
    return [] if reader is None else reader(command)


def _name(command: Command) -> str:
    return (command.program or b"").decode("utf-8", "replace")


def forwarded(command: Command | None) -> Launch | None:
    """The command another one runs elsewhere with its standard input, or None when it forwards nothing.

    `docker exec -i C mysql shop`, `docker compose exec -T db psql`, `kubectl
    exec -i P -- mysql`, `ssh host mysql db`: the program that reads the pipe is
    the inner one, in a container or on another machine. `Launch.stdin` says
    whether stdin reaches it at all: `docker exec` and `kubectl exec` pass it
    on only with `-i`, compose's exec unless `-d`, `ssh` unless `-n` or `-f`.
    """
    if command is None or command.program is None:
        return None
    if has(command.program, Trait.RUNS_ELSEWHERE):
        return next(iter(launches(command)), None)
    ssh = parse_ssh(command)
    if ssh is None or not ssh.remote:
        return None
    remote = remote_command(command.node, ssh.remote)
    return None if remote is None else Launch(remote, "ssh", not ssh.has("-n", "-f"))


def remote_command(node: Node, words: Sequence[Node]) -> Command | None:
    """The simple command a remote shell runs for these words (`ssh h mysql db`), or None for anything else.

    One word is split by the remote shell (`ssh h 'sudo -u pg psql db'`): its
    value is parsed as a script of one simple command. Several words are
    joined by blanks first, which reads them as the words they are.
    """
    if len(words) != 1:
        return read_words(node, words)
    value = syntax.literal_value(words[0])
    if value is None:
        return None
    statements = syntax.parse(value).root_node.named_children
    if len(statements) != 1 or statements[0].type != "command":
        return None
    return commands.read(statements[0])
