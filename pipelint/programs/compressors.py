"""Compressors and decompressors on a command line: which format, which level, where the output goes.

Shared by PL301 (serialized-transfer), PL302 (slow-compression-in-transfer)
and PL303 (double-compression).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node

from pipelint.shell import syntax
from pipelint.programs.command import Command
from pipelint.programs.table import Trait, has, named, program


@dataclass(frozen=True)
class Format:
    name: str
    suffix: str
    default_level: int
    decompress: str  # how to decompress a stream to stdout: `gunzip -c`


FORMATS = {
    "gzip": Format("gzip", ".gz", 6, "gunzip -c"),
    "bzip2": Format("bzip2", ".bz2", 9, "bunzip2 -c"),
    "xz": Format("xz", ".xz", 6, "unxz -c"),
    "zstd": Format("zstd", ".zst", 3, "zstd -dc"),
    "lz4": Format("lz4", ".lz4", 1, "lz4 -dc"),
}

# Compressor commands and their format, and the commands that only decompress (the program table's).
COMPRESSORS = {name.decode(): program(name).format for name in named(Trait.COMPRESSOR)}
DECOMPRESSORS = {name.decode(): program(name).format for name in named(Trait.DECOMPRESSOR)}

# File name endings of data that is already compressed.
COMPRESSED_SUFFIXES = (
    ".gz", ".tgz", ".bz2", ".tbz", ".tbz2", ".xz", ".txz", ".zst", ".tzst", ".lz4", ".lz", ".lzma", ".lzo",
    ".z", ".zip", ".7z", ".rar", ".br",
)  # fmt: skip

# Options that make a compressor decompress, test or list instead (the short
# ones as `command.Option` names: `-dc` is `-d` and `-c`).
DECOMPRESS_OPTIONS = ("-d", "-t", "-l", "--decompress", "--uncompress", "--test", "--list")
_STDOUT_OPTIONS = ("-c", "--stdout", "--to-stdout")
_NAMED_LEVELS = {"--fast": 1, "--best": 9}


@dataclass
class Compression:
    """A command that compresses: what it reads, where it writes, at which level."""

    command: Command
    tool: str
    format: Format
    level: int | None = None  # explicit level, None for the default
    level_node: Node | None = None  # the word holding the level, when it holds nothing else
    to_stdout: bool = False
    files: list[Node] = field(default_factory=list)
    output: Node | None = None  # `zstd -o FILE`, `lz4 SRC DST`

    @property
    def effective_level(self) -> int:
        return self.format.default_level if self.level is None else self.level


def parse(command: Command) -> Compression | None:
    """The command as a compressor, or None (a decompressor, a computed option, not a compressor)."""
    tool = None if command.program is None else command.program.decode("utf-8", "replace")
    if tool not in COMPRESSORS or command.wrappers or not command.exact:
        return None
    if command.assignments:
        return None  # `GZIP=-9 gzip` sets the level from the environment
    if command.has(*DECOMPRESS_OPTIONS):
        return None
    found = Compression(command, tool, FORMATS[COMPRESSORS[tool]], files=list(command.operands))
    _read_options(found, command)
    if not found.files or all(syntax.literal_value(f) == b"-" for f in found.files):
        found.to_stdout = found.output is None
    if program(command.program).output_operand and len(found.files) == 2 and not found.to_stdout:
        found.output = found.files.pop()
    return found


def _read_options(found: Compression, command: Command) -> None:
    """Level, stdout and output file from the options; the last level given wins."""
    for option in command.options:
        name = option.name
        if name in _STDOUT_OPTIONS:
            found.to_stdout = True
        elif name in _NAMED_LEVELS or name[1:].isdigit():
            found.level = _NAMED_LEVELS.get(name) or int(name[1:])
            found.level_node = option.node if option.is_whole_word else None
        elif name in ("-o", "--output") and option.value_node is not None:
            found.output = option.value_node


def decompresses_to_stdout(command: Command) -> bool:
    """`zcat f.gz`, `gunzip -c f.gz`, `zstd -dc f`: the data goes to stdout, not into a file."""
    return has(command.program, Trait.DECOMPRESSES_TO_STDOUT) or command.has(*_STDOUT_OPTIONS)


def decompression_format(command: Command) -> str | None:
    """The format command decompresses (`gunzip`, `zstd -d`), or None."""
    name = None if command.program is None else command.program.decode("utf-8", "replace")
    if name in DECOMPRESSORS:
        return DECOMPRESSORS[name]
    if name in COMPRESSORS and command.has("-d", "--decompress", "--uncompress", "--test", "--list"):
        return COMPRESSORS[name]
    return None


# tar options that name its built-in compressor; and those that compress some
# other way, or do anything but create an archive.
_TAR_COMPRESSION = {
    "-z": "gzip", "--gzip": "gzip", "--gunzip": "gzip", "-j": "bzip2", "--bzip2": "bzip2",
    "-J": "xz", "--xz": "xz", "--lzma": "xz",
}  # fmt: skip
TAR_COMPRESSION_OPTIONS = frozenset(_TAR_COMPRESSION)
_TAR_OTHER_COMPRESSION = ("-I", "-a", "-Z", "--use-compress-program", "--zstd", "--lzop", "--lzip", "--auto-compress")
_TAR_NOT_CREATING = ("-x", "-t", "-d", "-u", "-r", "-A")


def tar_compression(command: Command) -> tuple[str, Node | None] | None:
    """For `tar` creating an archive on stdout with a built-in compressor: (option, its node).

    `tar czf - dir` → ("z", node), `tar --xz -cf - d` → ("--xz", node). None when tar
    extracts, writes a file, or compresses through -I/--use-compress-program.
    """
    if not has(command.program, Trait.TAR) or command.wrappers or not command.exact:
        return None
    if command.has(*_TAR_OTHER_COMPRESSION) or command.has(*_TAR_NOT_CREATING):
        return None
    if not command.has("-c", "--create"):
        return None
    archives = [option for option in command.options if option.name in ("-f", "--file")]
    if archives and archives[-1].value != b"-":
        return None  # GNU tar writes to stdout when -f is not given
    chosen = [option for option in command.options if option.name in _TAR_COMPRESSION]  # the last one wins
    if not chosen:
        return None
    last = chosen[-1]
    return last.name.lstrip("-") if len(last.name) == 2 else last.name, last.node


@dataclass(frozen=True)
class TarArchive:
    """`tar czf backup.tgz dir`: a compressed archive written to a file."""

    command: Command
    option: str  # the compression option as `tar_compression` gives it: "z", "--xz"
    file: Node  # the word naming the archive


def tar_archive(command: Command) -> TarArchive | None:
    """tar creating an archive with a built-in compressor into a named file (not stdout, not computed)."""
    if not has(command.program, Trait.TAR) or command.wrappers or not command.exact:
        return None
    if command.has(*_TAR_OTHER_COMPRESSION) or command.has(*_TAR_NOT_CREATING) or not command.has("-c", "--create"):
        return None
    archives = [option for option in command.options if option.name in ("-f", "--file")]
    if len(archives) != 1 or archives[0].value_node is None or archives[0].value in (None, b"-"):
        return None
    chosen = [option for option in command.options if option.name in _TAR_COMPRESSION]
    if not chosen:
        return None
    last = chosen[-1]
    return TarArchive(command, last.name.lstrip("-") if len(last.name) == 2 else last.name, archives[0].value_node)


def tar_compressor(option: str) -> str:
    """The compressor program a tar compression option runs: `z` or `--gzip` → gzip (`tar_compression`'s option)."""
    return _TAR_COMPRESSION["-" + option if len(option) == 1 else option]
