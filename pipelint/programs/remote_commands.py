"""Reading `ssh`, `scp`, `rsync` and `sftp` command lines: options, host, remote command, targets.

Shared by PL301 (serialized-transfer), PL302 (slow-compression-in-transfer)
and PL303 (double-compression).
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from tree_sitter import Node

from pipelint.shell import syntax
from pipelint.programs.command import Command, Option

_COMPRESSION_YES = re.compile(r"^compression\s*[= ]\s*yes$", re.IGNORECASE)


@dataclass(frozen=True)
class Ssh:
    command: Command
    host: Node | None
    remote: tuple[Node, ...]  # the remote command's words

    def has(self, *names: str) -> bool:
        return self.command.has(*names)

    def remote_text(self) -> bytes:
        """The remote command as the remote shell gets it: each word's value (its inner quotes kept for the
        remote shell), or its shape where only run time knows it (`"/tmp/$1.gz"` stays `/tmp/$1.gz`)."""
        return b" ".join(_value_or_shape(node) for node in self.remote)

    @property
    def expands_here(self) -> bool:
        """Some word of the remote command is expanded by the local shell first (`"… $db …"`)."""
        return any(syntax.literal_value(node) is None for node in self.remote)

    def compression_options(self) -> list[Option]:
        """`-C`, and `-o Compression=yes` in any spelling."""
        return [option for option in self.command.options if option.name == "-C" or _says_compression(option)]


def _says_compression(option: Option) -> bool:
    if option.name != "-o" or not option.value:
        return False
    return bool(_COMPRESSION_YES.match(option.value.decode("utf-8", "replace").strip()))


def _value_or_shape(node: Node) -> bytes:
    value = syntax.literal_value(node)
    return value if value is not None else syntax.shape(node).encode()


def one_line(text: str | bytes) -> str:
    """A command written over several lines (`\\` continuations), on one, for advice."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    return " ".join(text.replace("\\\n", " ").split())


def host_key(text: bytes) -> str:
    """`root@"$host"` and `"$host"` name the same machine: drop quotes and the user part."""
    plain = text.replace(b'"', b"").replace(b"'", b"").decode("utf-8", "replace")
    return plain.rpartition("@")[2].replace("${", "$").replace("}", "").lower()


def _plain(command: Command, *programs: bytes, through_wrappers: bool = False) -> bool:
    """command runs one of programs directly, and every option is known.

    through_wrappers also takes `nice scp …`, `sshpass -f pw scp …`, `timeout 60
    ssh …`: fine for advice about what is copied, never `sudo` (another user's files).
    """
    if command.program not in programs or not command.exact:
        return False
    return not command.wrappers or through_wrappers and not command.runs_as_other_user


def parse_ssh(command: Command, *, through_wrappers: bool = False) -> Ssh | None:
    """`ssh [options] host [command…]`, or None when it is not ssh or its options are computed."""
    if not _plain(command, b"ssh", through_wrappers=through_wrappers):
        return None
    operands = command.operands
    return Ssh(command, operands[0] if operands else None, operands[1:])


@dataclass(frozen=True)
class Upload:
    """`scp a b host:dir/`: the local operand nodes and where they go."""

    tool: str
    sources: list[Node]
    host: str  # as host_key gives it
    host_text: str  # as written, user part included
    path: str  # the remote path, "" for the remote home

    def landing(self, local: str) -> list[str]:
        """Where the copied file local may be on the other host: `dir/` + its name, or the target itself
        (`host:/srv/x` may be a folder or the new name)."""
        name = posixpath.basename(local)
        if not self.path or self.path.endswith("/"):
            return [self.path + name]
        return [self.path, posixpath.join(self.path, name)]


def parse_upload(command: Command, *, through_wrappers: bool = False) -> Upload | None:
    """An `scp` or `rsync` copying local files to `[user@]host:path` (not an rsync daemon `host::mod`)."""
    if not _plain(command, b"scp", b"rsync", through_wrappers=through_wrappers):
        return None
    operands = command.operands
    if len(operands) < 2:
        return None
    target = syntax.shape(operands[-1])  # quotes dropped, `${F}` as `$F`
    host, colon, path = target.partition(":")
    if not colon or "/" in host or not host or path.startswith(":"):
        return None
    sources = list(operands[:-1])
    if any(b":" in syntax.text(s) for s in sources):
        return None  # remote to remote
    return Upload(command.program.decode(), sources, host_key(host.encode()), host, path)  # type: ignore[union-attr]


@dataclass(frozen=True)
class Download:
    """`scp host:/tmp/x.gz .`: one remote file and where it lands here."""

    tool: str
    host: str  # as host_key gives it
    path: str  # the remote path as `syntax.shape` gives it
    target: Node  # the local operand


def parse_download(command: Command, *, through_wrappers: bool = False) -> Download | None:
    """An `scp` or `rsync` copying one file from `[user@]host:path` to a local path."""
    if not _plain(command, b"scp", b"rsync", through_wrappers=through_wrappers):
        return None
    operands = command.operands
    if len(operands) != 2 or b":" in syntax.text(operands[1]):
        return None
    source = syntax.shape(operands[0])  # quotes dropped, `${F}` as `$F`
    host, colon, path = source.partition(":")
    if not colon or not host or "/" in host or not path or path.startswith(":"):
        return None
    return Download(command.program.decode(), host_key(host.encode()), path, operands[1])  # type: ignore[union-attr]


def parse_sftp(command: Command) -> tuple[str, str] | None:
    """`sftp [options] [user@]host[:dir]` → (host as written, dir)."""
    if not _plain(command, b"sftp"):
        return None
    values = command.operand_values
    if not values or values[-1] is None:
        return None
    host, _, directory = values[-1].decode("utf-8", "replace").partition(":")
    return host, directory
