"""Reading `ssh`, `scp`, `rsync` and `sftp` command lines: options, host, remote command, targets.

Shared by PL301 (serialized-transfer), PL302 (slow-compression-in-transfer)
and PL303 (double-compression).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tree_sitter import Node

from pipelint import syntax

# OpenSSH ssh(1) and scp(1) options that take a value.
SSH_VALUE_LETTERS = frozenset("BbcDEeFIiJLlmOoPpQRSWw")
SCP_VALUE_LETTERS = frozenset("cDFiJloPSX")
RSYNC_VALUE_LETTERS = frozenset("efBTM")
_COMPRESSION_YES = re.compile(r"^compression\s*[= ]\s*yes$", re.IGNORECASE)


@dataclass(frozen=True)
class Option:
    letter: str
    node: Node  # the word holding the letter
    value: str | None = None  # for letters that take one
    value_node: Node | None = None  # when the value is the next word


@dataclass
class Ssh:
    options: list[Option] = field(default_factory=list)
    host: Node | None = None
    remote: list[Node] = field(default_factory=list)  # the remote command's words

    def has(self, letter: str) -> bool:
        return any(option.letter == letter for option in self.options)

    def compression_options(self) -> list[Option]:
        """`-C`, and `-o Compression=yes` in any spelling."""
        return [
            option
            for option in self.options
            if option.letter == "C" or (option.letter == "o" and option.value and _COMPRESSION_YES.match(option.value.strip()))
        ]

    @property
    def host_name(self) -> str | None:
        """The host without `user@`, as written (variables kept), or None."""
        return None if self.host is None else host_key(syntax.text(self.host))


def host_key(text: bytes) -> str:
    """`root@"$host"` and `"$host"` name the same machine: drop quotes and the user part."""
    plain = text.replace(b'"', b"").replace(b"'", b"").decode("utf-8", "replace")
    return plain.rpartition("@")[2].replace("${", "$").replace("}", "").lower()


def _options(arguments: list[Node], value_letters: frozenset[str]) -> tuple[list[Option], int] | None:
    """Leading options, letter by letter; the index of the first operand. None if one is computed."""
    options: list[Option] = []
    index = 0
    while index < len(arguments):
        node = arguments[index]
        value = syntax.literal_value(node)
        if value is None:
            if syntax.text(node).lstrip(b"\"'").startswith(b"-"):
                return None  # `"-$opts"`: cannot tell which options
            break
        word = value.decode("utf-8", "replace")
        if word == "--":
            return options, index + 1
        if not word.startswith("-") or word == "-":
            break
        index += 1
        if word.startswith("--"):
            options.append(Option(word, node))
            continue
        letters = word[1:]
        for position, letter in enumerate(letters):
            if letter in value_letters:
                rest = letters[position + 1 :]
                if rest:
                    options.append(Option(letter, node, rest))
                elif index < len(arguments):
                    following = arguments[index]
                    text = syntax.literal_value(following)
                    options.append(Option(letter, node, None if text is None else text.decode("utf-8", "replace"), following))
                    index += 1
                else:
                    options.append(Option(letter, node))
                break
            options.append(Option(letter, node))
    return options, index


def parse_ssh(command: Node) -> Ssh | None:
    """`ssh [options] host [command…]`, or None when it is not ssh or its options are computed."""
    if command.type != "command" or syntax.basename(syntax.command_name(command)) != b"ssh":
        return None
    arguments = syntax.arguments(command)
    parsed = _options(arguments, SSH_VALUE_LETTERS)
    if parsed is None:
        return None
    options, index = parsed
    ssh = Ssh(options)
    if index < len(arguments):
        ssh.host = arguments[index]
        ssh.remote = arguments[index + 1 :]
    return ssh


def remote_command_text(ssh: Ssh) -> bytes | None:
    """The command ssh runs remotely (its words joined by spaces, as ssh does), when static."""
    values = [syntax.literal_value(node) for node in ssh.remote]
    if not values or any(v is None for v in values):
        return None
    return b" ".join(values)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Upload:
    """`scp a b host:dir/`: the local operand nodes and where they go."""

    tool: str
    sources: list[Node]
    host: str  # as host_key gives it
    host_text: str  # as written, user part included
    path: str  # the remote path, "" for the remote home


def parse_upload(command: Node) -> Upload | None:
    """An `scp` or `rsync` copying local files to `[user@]host:path` (not an rsync daemon `host::mod`)."""
    if command.type != "command":
        return None
    name = syntax.basename(syntax.command_name(command))
    letters = {b"scp": SCP_VALUE_LETTERS, b"rsync": RSYNC_VALUE_LETTERS}.get(name or b"")
    if letters is None:
        return None
    parsed = _options(syntax.arguments(command), letters)
    if parsed is None:
        return None
    _, index = parsed
    operands = [a for a in syntax.arguments(command)[index:] if not syntax.text(a).startswith(b"-")]
    if len(operands) < 2:
        return None
    target = syntax.text(operands[-1]).replace(b'"', b"").replace(b"'", b"").decode("utf-8", "replace")
    host, colon, path = target.partition(":")
    if not colon or "/" in host or not host or path.startswith(":"):
        return None
    sources = operands[:-1]
    if any(b":" in syntax.text(s) for s in sources):
        return None  # remote to remote
    return Upload(name.decode(), sources, host_key(host.encode()), host, path)
