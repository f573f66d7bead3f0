"""Compressors and decompressors on a command line: which format, which level, where the output goes.

Shared by PL301 (serialized-transfer), PL302 (slow-compression-in-transfer)
and PL303 (double-compression).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node

from pipelint import syntax


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

# Compressor commands and their format.
COMPRESSORS = {
    "gzip": "gzip", "pigz": "gzip", "bzip2": "bzip2", "pbzip2": "bzip2", "lbzip2": "bzip2",
    "xz": "xz", "pixz": "xz", "zstd": "zstd", "pzstd": "zstd", "zstdmt": "zstd", "lz4": "lz4",
}  # fmt: skip

# Commands that only decompress, and the format they read.
DECOMPRESSORS = {
    "gunzip": "gzip", "zcat": "gzip", "unpigz": "gzip", "bunzip2": "bzip2", "bzcat": "bzip2",
    "unxz": "xz", "xzcat": "xz", "unzstd": "zstd", "zstdcat": "zstd", "unlz4": "lz4", "lz4cat": "lz4",
}  # fmt: skip

# File name endings of data that is already compressed.
COMPRESSED_SUFFIXES = (
    ".gz", ".tgz", ".bz2", ".tbz", ".tbz2", ".xz", ".txz", ".zst", ".tzst", ".lz4", ".lz", ".lzma", ".lzo",
    ".z", ".zip", ".7z", ".rar", ".br",
)  # fmt: skip

# Short options that take a value (separate or attached), per tool family.
_VALUE_OPTIONS = {
    "gzip": "S", "pigz": "SbpIJ", "bzip2": "", "pbzip2": "bpm", "lbzip2": "n", "xz": "TCFM",
    "pixz": "pt", "zstd": "oTDBM", "pzstd": "po", "zstdmt": "oTDBM", "lz4": "B",
}  # fmt: skip
_LONG_WITH_VALUE = frozenset({"--suffix", "--threads", "--format", "--check", "--memlimit", "--output", "--dict"})
_DECOMPRESS_FLAGS = frozenset({"d", "t", "l"})
_DECOMPRESS_LONG = frozenset({"--decompress", "--uncompress", "--test", "--list"})
_STDOUT_LONG = frozenset({"--stdout", "--to-stdout"})


@dataclass
class Compression:
    """A command that compresses: what it reads, where it writes, at which level."""

    tool: str
    format: Format
    level: int | None = None  # explicit level, None for the default
    level_node: Node | None = None  # the word holding the level, when it holds nothing else
    to_stdout: bool = False
    files: list[Node] = field(default_factory=list)
    output: Node | None = None  # `zstd -o FILE`, `lz4 SRC DST`
    options: list[str] = field(default_factory=list)

    @property
    def effective_level(self) -> int:
        return self.format.default_level if self.level is None else self.level


def parse(command: Node) -> Compression | None:
    """The command as a compressor, or None (a decompressor, a computed option, not a compressor)."""
    if command.type != "command" or syntax.has_assignments(command):
        return None  # `GZIP=-9 gzip` sets the level from the environment
    name = syntax.basename(syntax.command_name(command))
    tool = None if name is None else name.decode("utf-8", "replace")
    if tool not in COMPRESSORS:
        return None
    found = Compression(tool, FORMATS[COMPRESSORS[tool]])
    value_letters = _VALUE_OPTIONS[tool]
    arguments = syntax.arguments(command)
    index = 0
    operands_only = False
    while index < len(arguments):
        node = arguments[index]
        index += 1
        value = syntax.literal_value(node)
        if operands_only or value is None or value == b"-" or not value.startswith(b"-"):
            if value is None and not operands_only and syntax.text(node).lstrip(b"\"'").startswith(b"-"):
                return None  # `-$level`
            found.files.append(node)
            continue
        word = value.decode("utf-8", "replace")
        if word == "--":
            operands_only = True
            continue
        if word.startswith("--"):
            key = word.partition("=")[0]
            if key in _DECOMPRESS_LONG:
                return None
            if key in _STDOUT_LONG:
                found.to_stdout = True
            elif key == "--fast":
                found.level, found.level_node = 1, node
            elif key == "--best":
                found.level, found.level_node = 9, node
            elif key == "--output" and "=" not in word and index < len(arguments):
                found.output = arguments[index]
                index += 1
            elif key in _LONG_WITH_VALUE and "=" not in word:
                index += 1
            found.options.append(word)
            continue
        letters = word[1:]
        if letters.isdigit():
            found.level, found.level_node = int(letters), node
            found.options.append(word)
            continue
        position = 0
        while position < len(letters):
            letter = letters[position]
            position += 1
            if letter.isdigit():
                digits = letter
                while position < len(letters) and letters[position].isdigit():
                    digits += letters[position]
                    position += 1
                found.level, found.level_node = int(digits), None
            elif letter in _DECOMPRESS_FLAGS:
                return None
            elif letter == "c":
                found.to_stdout = True
            elif letter in value_letters:
                if position == len(letters) and index < len(arguments):
                    if letter == "o":
                        found.output = arguments[index]
                    index += 1
                break
        found.options.append(word)
    if not found.files or all(syntax.literal_value(f) == b"-" for f in found.files):
        found.to_stdout = found.output is None
    if tool == "lz4" and len(found.files) == 2 and not found.to_stdout:
        found.output = found.files.pop()
    return found


def decompressor_format(words: list[str]) -> str | None:
    """The format `words` (a command's name and literal arguments) decompresses, or None."""
    if not words:
        return None
    name = words[0].rsplit("/", 1)[-1]
    if name in DECOMPRESSORS:
        return DECOMPRESSORS[name]
    if name in COMPRESSORS:
        for word in words[1:]:
            if word in _DECOMPRESS_LONG or (word.startswith("-") and not word.startswith("--") and "d" in word[1:]):
                return COMPRESSORS[name]
    return None


def tar_compression(command: Node) -> tuple[str, Node | None] | None:
    """For `tar` creating an archive on stdout with a built-in compressor: (option, its node).

    `tar czf - dir` → ("z", node), `tar --xz -cf - d` → ("--xz", node). None when tar
    extracts, writes a file, or compresses through -I/--use-compress-program.
    """
    if command.type != "command" or syntax.basename(syntax.command_name(command)) not in (b"tar", b"gtar", b"bsdtar"):
        return None
    arguments = syntax.arguments(command)
    values = [syntax.literal_value(a) for a in arguments]
    words = [None if v is None else v.decode("utf-8", "replace") for v in values]
    creating = False
    compression: tuple[str, Node | None] | None = None
    archive: str | None = "-"  # GNU tar writes to stdout when -f is not given
    index = 0
    while index < len(words):
        word, node = words[index], arguments[index]
        index += 1
        if word is None:
            continue
        if word.startswith("--"):
            key, _, attached = word.partition("=")
            if key == "--create":
                creating = True
            elif key in ("--gzip", "--gunzip", "--bzip2", "--xz", "--lzma"):
                compression = (key, node)
            elif key in ("--use-compress-program", "--zstd", "--lzop", "--lzip", "--auto-compress"):
                return None
            elif key == "--file":
                if attached or "=" in word:
                    archive = attached
                elif index < len(words):
                    archive = words[index]
                    index += 1
            continue
        bundled = index == 1 and not word.startswith("-")  # old style: `tar czf - dir`
        if not (word.startswith("-") or bundled) or word == "-":
            continue
        letters = word if bundled else word[1:]
        for position, letter in enumerate(letters):
            if letter == "c":
                creating = True
            elif letter in "zjJ":
                compression = (letter, node)
            elif letter in "IaZ":
                return None
            elif letter == "f":
                rest = letters[position + 1 :]
                if rest and not bundled:
                    archive = rest
                elif index < len(words):
                    archive = words[index]
                    index += 1
                break
            elif letter in "xtdurA":
                return None
    if not creating or compression is None or archive != "-":
        return None
    return compression
