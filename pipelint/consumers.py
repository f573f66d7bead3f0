"""Commands that restore a dump or unpack an archive from standard input.

The one list behind PL004 (piped-dump-import) and PL203 (useless-dd-reader).
"""

from __future__ import annotations

from tree_sitter import Node

from pipelint import syntax

# Consumers recognised by name alone.
DUMP_RESTORERS = frozenset(
    {"mysql", "mariadb", "psql", "pg_restore", "sqlite3", "mongorestore", "mbstream", "xbstream"}
)

# Wrappers that run the command named after their own options, and the options
# of theirs that take a separate argument.
_WRAPPERS = {
    "sudo": frozenset({"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T"}),
    "doas": frozenset({"-u", "-C"}),
    "env": frozenset({"-u", "-C", "-S"}),
    "nice": frozenset({"-n"}),
    "ionice": frozenset({"-c", "-n", "-p"}),
    "nohup": frozenset(),
    "time": frozenset({"-f", "-o"}),
    "chrt": frozenset(),
    "taskset": frozenset(),
}


def _words(command: Node) -> list[str | None]:
    """The command's name and arguments as static strings (None where computed)."""
    if command.type != "command":
        return []
    name = syntax.command_name(command)
    values = [name] + [syntax.literal_value(arg) for arg in syntax.arguments(command)]
    return [None if v is None else v.decode("utf-8", "replace") for v in values]


def unwrap(words: list[str | None]) -> list[str | None]:
    """Skip `sudo -u postgres`, `env A=1`, `nice -n 19` and the like."""
    while words and words[0] is not None and words[0].rsplit("/", 1)[-1] in _WRAPPERS:
        takes_value = _WRAPPERS[words[0].rsplit("/", 1)[-1]]
        index = 1
        while index < len(words):
            word = words[index]
            if word is None:
                return []
            if word == "--":
                index += 1
                break
            if word.startswith("-") or "=" in word:
                index += 2 if word in takes_value else 1
                continue
            break
        words = words[index:]
    return words


def dump_consumer(command: Node) -> str | None:
    """The name of the restore/unpack tool command runs, or None."""
    words = unwrap(_words(command))
    if not words or words[0] is None:
        return None
    name = words[0].rsplit("/", 1)[-1]
    args = [w for w in words[1:] if w is not None]
    if name in DUMP_RESTORERS:
        return name
    if name == "redis-cli" and "--pipe" in args:
        return "redis-cli --pipe"
    if name in ("tar", "bsdtar", "gtar") and _tar_extracts(args):
        return name
    if name == "cpio" and any(a == "--extract" or _short_cluster_has(a, "i") for a in args):
        return "cpio"
    return None


def _short_cluster_has(word: str, letter: str) -> bool:
    return word.startswith("-") and not word.startswith("--") and word[1:].isalpha() and letter in word[1:]


def _tar_extracts(args: list[str]) -> bool:
    if args and not args[0].startswith("-") and args[0].isalpha() and "x" in args[0]:
        return True  # old-style bundled options: `tar xzf -`
    return any(a in ("--extract", "--get") or _short_cluster_has(a, "x") for a in args)
