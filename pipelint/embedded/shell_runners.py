"""Commands that run shell text, and which text: the finders of embedded.py.

A command hands shell text to a shell in one of two ways:
- as words: `sh -c 'SCRIPT'`, `su -c 'SCRIPT'`, `flock FILE -c 'SCRIPT'`,
  `ssh HOST WORDS…` and `watch WORDS…` (these two join their words with
  blanks, as `sh -c "$*"` would);
- on standard input: a here-document or here-string fed to a shell that
  reads its script there (`bash <<EOF`, `sh -s <<EOF`, `ssh HOST <<'EOF'`,
  `ssh HOST bash -s <<EOF`, `su - USER <<EOF`, `docker exec -i C sh <<EOF`).

`scripts_run_by(command, remote_dialect)` returns an `InnerScript` for each, read
through wrappers (`sudo`, `nice`, `sshpass`) and launchers (`docker exec`,
`kubectl exec`, `xargs`, `find -exec`: launchers.py). Turning an InnerScript into
a Region (quote removal, here-document rules) is embedded.py's part.

The inner text's dialect is the shell that runs it: `bash -c` bash, `sh -c`
POSIX sh. ssh's remote command, `su -c` and `flock -c` run in the login
shell of a user on another machine or account (flock: `$SHELL`), which the
script cannot show: `remote_dialect` (setting `remote-shell`, POSIX sh unless
told) stands for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from tree_sitter import Node

from pipelint.shell import syntax
from pipelint.programs.command import Command
from pipelint.shell.dialect import SHELLS, Dialect
from pipelint.shell.options import ANY, STARTUP_VARIABLES, Environment, read_shell_arguments
from pipelint.programs.launchers import LAUNCHERS, PASSED, launches, remote_command
from pipelint.programs.table import WRAPPERS, Trait, has, named

# How many launchers deep a command line is read (`docker exec C xargs sh -c …` is two).
MAX_LAUNCHES = 3

# ssh options after which it runs no remote command, or not one a shell reads:
# -N none, -s a subsystem, -W stdio forwarding, -O a control command, -G/-V/-Q only print.
_SSH_NO_SHELL = ("-N", "-s", "-W", "-O", "-G", "-V", "-Q")

# First words that may lead to a script: the programs below and the wrappers
# and launchers the model sees through to them. Only these commands are read.
LEADS = (
    named(Trait.SHELL) | named(Trait.REMOTE_SHELL) | named(Trait.SWITCHES_USER) | frozenset(WRAPPERS)
    | frozenset(LAUNCHERS)
)  # fmt: skip


@dataclass(frozen=True)
class InnerScript:
    """Shell text a command runs, as the host script holds it."""

    dialect: Dialect
    origin: str  # for messages: "the script `sh -c` runs"
    words: tuple[Node, ...] = ()  # the text, as words a blank joins (one for `sh -c`)
    redirect: Node | None = None  # or the here-document / here-string on a shell's stdin
    substituted: bytes = b""  # what a launcher replaces in the text first (`{}`)
    prefix: bytes = b""  # what the first word holds before the text: `--command=` of `su --command='…'`
    options: frozenset[str] = frozenset()  # `set -o` names its shell's command line turns on: `bash -e -c`
    status: str = PASSED  # what becomes of its exit status: launchers.Launch.status
    stdout_over_network: bool = False  # ssh's remote command: its output crosses the link
    stdin_over_network: bool = False
    # The startup variables the command sets for the shell (`SHELLOPTS=errexit bash -c`, `env BASH_ENV=f sh -c`).
    environment: Environment = ()
    # The shell runs here, with the caller's environment (not on another machine or in a container).
    inherits_environment: bool = True


def shell_dialect(program: bytes | None) -> Dialect | None:
    """The dialect of a shell a script names as a program (`/bin/bash`); None for zsh and non-shells."""
    name = syntax.basename(program or b"")
    return SHELLS[name.decode()].dialect if has(name, Trait.SHELL) else None  # type: ignore[union-attr]


def _name(command: Command) -> str:
    return (command.program or b"").decode("utf-8", "replace")


def _shell_c(command: Command, remote_dialect: Dialect) -> list[InnerScript]:
    """`sh -c 'SCRIPT' [ARG0 ARG…]`, `bash -ec '…'`: the script the shell runs."""
    dialect = shell_dialect(command.program)
    if dialect is None or not command.exact or not command.has("-c") or not command.operands:
        return []
    origin = f"the script `{_name(command)} -c` runs"
    options = _command_line_options(command)
    return [InnerScript(dialect, origin, command.operands[:1], options=options, environment=startup_assignments(command))]


def _ssh(command: Command, remote_dialect: Dialect) -> list[InnerScript]:
    """`ssh [opts] HOST [opts] WORDS…`: the remote command; with none, a here-document is the script."""
    if not has(command.program, Trait.REMOTE_SHELL) or not command.exact or not command.operands:
        return []
    remote = command.operands[1:]  # the model reads options after the host too: `ssh host -t 'cmd'`
    names = {option.name for option in command.options}
    if names.intersection(_SSH_NO_SHELL):
        return []
    reads_stdin = not names.intersection(("-n", "-f"))
    facts = {"stdout_over_network": True, "stdin_over_network": reads_stdin, "inherits_environment": False}
    found = []
    if remote:
        found.append(InnerScript(remote_dialect, f"the command `{_name(command)}` runs remotely", tuple(remote), **facts))
    if reads_stdin:
        dialect = _remote_stdin_shell(command.node, remote, remote_dialect)
        found += _fed_script(command, dialect, f"the here-document `{_name(command)}` runs remotely", **facts)
    return found


def _remote_stdin_shell(node: Node, remote: Sequence[Node], remote_dialect: Dialect) -> Dialect | None:
    """The dialect of the shell that reads ssh's stdin as its script: the login shell or `bash -s`…

    None when the remote command is something else (`ssh h 'cat > f' <<EOF` sends data).
    """
    if not remote:
        return remote_dialect
    launched = remote_command(node, remote)  # `ssh h 'sudo bash -s'`: one word the remote shell splits
    return None if launched is None else _stdin_script_dialect(launched)


def _stdin_script_dialect(command: Command) -> Dialect | None:
    """A shell that reads its script from stdin (`bash`, `sh -s ARG…`, not `bash -c` or `bash f.sh`)."""
    dialect = shell_dialect(command.program)
    if dialect is None or not command.exact or command.has("-c"):
        return None
    if command.operands and not command.has("-s"):
        return None
    return dialect


def _su(command: Command, remote_dialect: Dialect) -> list[InnerScript]:
    """`su [-] USER -c 'CMD'` (and `su -c CMD USER`); `su - USER <<EOF` reads its script from stdin."""
    if not has(command.program, Trait.SWITCHES_USER) or not command.exact or command.has("-u", "--user"):
        return []
    shell = command.option("-s") or command.option("--shell")
    dialect = remote_dialect if shell is None else shell_dialect(shell.value)
    if dialect is None:
        return []
    given = command.option("-c") or command.option("--command")
    if given is None:
        return _fed_script(command, dialect, f"the here-document `{_name(command)}` runs")
    origin = f"the command `{_name(command)} -c` runs"
    if given.value_node is not None:
        return [InnerScript(dialect, origin, (given.value_node,))]
    # `-c'CMD'`, `--command='CMD'`: the text is the rest of the option's word.
    # A cluster (`-lc'…'`) does not start with the prefix: words_region gives up on it.
    attached = given.name.encode() + (b"=" if given.name == "--command" else b"")
    return [InnerScript(dialect, origin, (given.node,), prefix=attached)]


def _watch(command: Command, remote_dialect: Dialect) -> list[InnerScript]:
    """`watch [opts] WORDS…` runs the joined words with `sh -c` (`watch -x` launches them instead)."""
    if command.program != b"watch" or not command.exact or command.has("-x", "--exec") or not command.operands:
        return []
    return [InnerScript(Dialect.SH, "the command `watch` runs", command.operands)]


def _flock_c(command: Command, remote_dialect: Dialect) -> list[InnerScript]:
    """`flock [opts] FILE -c CMD`: flock runs CMD with `$SHELL -c` (/bin/sh when unset)."""
    operands = command.operands
    if command.program != b"flock" or not command.exact or len(operands) != 3:
        return []
    if syntax.literal_value(operands[1]) not in (b"-c", b"--command"):
        return []
    return [InnerScript(remote_dialect, "the command `flock -c` runs", operands[2:])]


def _stdin_shell(command: Command, remote_dialect: Dialect) -> list[InnerScript]:
    """`bash <<EOF`, `sh -s ARG <<'EOF'`, `sudo -u x bash <<<'…'`: the shell reads its script from stdin."""
    dialect = _stdin_script_dialect(command)
    if dialect is None:
        return []
    origin = f"the here-document `{_name(command)}` runs"
    environment = startup_assignments(command)
    return _fed_script(command, dialect, origin, options=_command_line_options(command), environment=environment)


def startup_assignments(command: Command) -> Environment:
    """The startup variables (SHELLOPTS, BASHOPTS, BASH_ENV) command sets for the program it runs: its own
    `NAME=value` prefixes and those of `env`/`sudo` before the program; the value None where computed."""
    found = []
    for child in command.node.named_children:
        if command.program_node is not None and child.start_byte >= command.program_node.start_byte:
            break
        if child.type == "variable_assignment":
            name, value = child.child_by_field_name("name"), child.child_by_field_name("value")
            if name is not None and syntax.text(name) in STARTUP_VARIABLES:
                found.append((syntax.text(name), b"" if value is None else syntax.literal_value(value)))
            continue
        for word in syntax.walk(child) if child.type != "command_name" else ():
            text = syntax.text(word)
            name, equals, _ = text.partition(b"=")
            if word.type in ("word", "concatenation") and equals and name in STARTUP_VARIABLES:
                value = syntax.literal_value(word)
                found.append((name, None if value is None else value.partition(b"=")[2]))
    return tuple(found)


def _command_line_options(shell: Command) -> frozenset[str]:
    """What the shell's own command line turns on (`bash -o errexit -c`, `sh -ec`); any option where a word is computed."""
    read = read_shell_arguments([_option_word(word) for word in shell.arguments])
    return read.on | {ANY} if read.unknown else read.on


def _option_word(word: Node) -> bytes | None:
    """A word's static value; a computed word as written unless it may be an option (`"$opts"`: None).

    A computed word that cannot start with `-` (`"cat $f | wc -l"`) is an operand, and ends the options.
    """
    value = syntax.literal_value(word)
    if value is None and not syntax.text(word).lstrip(b"\"'").startswith(b"-"):
        return syntax.text(word)
    return value


def _fed_script(command: Command, dialect: Dialect | None, origin: str, **facts: object) -> list[InnerScript]:
    """The here-document or here-string command's stdin comes from, as a script in dialect."""
    redirect = _stdin_text(command)
    if redirect is None or dialect is None:
        return []
    if redirect.type == "herestring_redirect":
        origin = origin.replace("here-document", "here-string")
    return [InnerScript(dialect, origin, redirect=redirect, **facts)]  # type: ignore[arg-type]


def _stdin_text(command: Command) -> Node | None:
    """The here-document or here-string that is the command's stdin (the last stdin redirect wins).

    Also the here-document a bare `cat` pipes into it: `cat <<'EOF' | ssh host sh`.
    """
    found = None
    for redirect in command.redirects:
        descriptor = next((syntax.text(c) for c in redirect.children if c.type == "file_descriptor"), b"0")
        if syntax.redirects_stdin(redirect) and descriptor == b"0":
            found = redirect
    if found is None:
        return _heredoc_through_cat(command.node)
    if found.type not in ("heredoc_redirect", "herestring_redirect"):
        return None
    return found


def _heredoc_through_cat(node: Node) -> Node | None:
    """For the stage right after `cat <<EOF |`, that here-document (tree-sitter files the stages under it)."""
    while node.parent is not None and node.parent.type == "pipeline":
        stages = [child for child in node.parent.named_children if child.type != "comment"]
        if not stages or stages[0] != node:
            return None
        node = node.parent
    redirect = node.parent
    if redirect is None or redirect.type != "heredoc_redirect" or redirect.parent is None:
        return None
    producer = redirect.parent.child_by_field_name("body")
    if producer is None or syntax.command_name(producer) != b"cat" or syntax.arguments(producer):
        return None
    others = [child for child in redirect.parent.children if child.type in syntax.REDIRECT_TYPES and child != redirect]
    return None if others or syntax.own_redirects(producer) else redirect


# Finders: each reads one command (after its wrappers) and returns the scripts it runs.
FINDERS = (_shell_c, _stdin_shell, _ssh, _su, _watch, _flock_c)


def scripts_run_by(command: Command, remote_dialect: Dialect = Dialect.SH, depth: int = 0) -> list[InnerScript]:
    """The shell text command runs, directly or through launchers (`docker exec C sh -c '…'`)."""
    found = [script for finder in FINDERS for script in finder(command, remote_dialect)]
    if depth >= MAX_LAUNCHES:
        return found
    elsewhere = has(command.program, Trait.RUNS_ELSEWHERE)  # `docker exec`: the container's environment
    for launch in launches(command):
        for script in scripts_run_by(launch.command, remote_dialect, depth + 1):
            if script.redirect is not None and not launch.stdin:
                continue  # the here-document never reaches it (xargs gives its command /dev/null)
            status = script.status if script.status != PASSED else launch.status  # the innermost launcher that keeps it decides
            inherits = script.inherits_environment and not elsewhere
            found.append(
                replace(
                    script, origin=f"{script.origin} in `{launch.via}`", substituted=launch.substituted, status=status,
                    inherits_environment=inherits,
                )
            )  # fmt: skip
    return found
