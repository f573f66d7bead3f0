"""PL102 tee-slow-mount: a pipeline that writes a file on NFS, CIFS, sshfs… waits for it."""

from __future__ import annotations

import posixpath
from collections.abc import Iterator
from dataclasses import dataclass

from tree_sitter import Node

from pipelint import command, evidence, mounts, syntax, tee_command
from pipelint.command import Command
from pipelint.finding import Applicability, Finding, FixAvailability, Severity
from pipelint.pipeline import Pipeline
from pipelint.rule import Context, Rule

_WRITES = (">", ">>", ">|", "&>", "&>>")
_GLOB = frozenset(b"*?[{")

# Commands that mount a network filesystem of a known type, and those that unmount.
_MOUNT_HELPERS = {b"mount.nfs": "nfs", b"mount.nfs4": "nfs4", b"mount.cifs": "cifs", b"mount.smb3": "smb3", b"sshfs": "fuse.sshfs"}
_UNMOUNTERS = frozenset({b"umount", b"fusermount", b"fusermount3"})


@dataclass(frozen=True)
class StaticPath:
    value: bytes  # the whole path, or only the directory it starts in
    complete: bool


@dataclass
class ScriptFacts:
    """What the script itself says about paths: literal variables and the mounts it makes."""

    variables: dict[bytes, tuple[int, bytes]]  # name → (where it is set, value)
    mounted: list[tuple[int, mounts.Mount | bytes]]  # (offset, a mount, or a mount point unmounted)

    def table(self, base: mounts.MountTable, offset: int) -> mounts.MountTable:
        """The system table plus what the script mounted (and did not unmount) before offset."""
        extra: list[mounts.Mount] = []
        for at, event in self.mounted:
            if at > offset:
                break
            if isinstance(event, mounts.Mount):
                extra.append(event)
            else:
                extra = [m for m in extra if m.point != event]
        return mounts.MountTable(base.mounts + tuple(extra)) if extra else base


def static_path(node: Node, variables: dict[bytes, tuple[int, bytes]]) -> StaticPath | None:
    """What can be known of a path operand before the script runs, or None.

    `/mnt/nfs/logs/$job.log` is known to lie in /mnt/nfs/logs; `$dir/x`, `~/x`
    and `*.log` are not known at all.
    """
    prefix, complete = _static_prefix(node, variables)
    if not prefix or prefix.startswith(b"~"):
        return None  # nothing known, or a home directory only known at run time
    if complete:
        return StaticPath(posixpath.normpath(prefix), True)
    directory, slash, _ = prefix.rpartition(b"/")
    if not slash:
        return None
    return StaticPath(posixpath.normpath(directory) if directory else b"/", False)


def _static_prefix(node: Node, variables: dict[bytes, tuple[int, bytes]]) -> tuple[bytes, bool]:
    """(literal text up to the first thing only known at run time, whether that is all of it)."""
    parts = node.named_children if node.type == "concatenation" else [node]
    known = b""
    for part in parts:
        value, complete = _static_part(part, variables)
        known += value
        if not complete:
            return known, False
    return known, True


def _static_part(node: Node, variables: dict[bytes, tuple[int, bytes]]) -> tuple[bytes, bool]:
    """(the part's known text, whether that is all of it)."""
    kind = node.type
    if kind in ("word", "number") and not node.named_child_count:
        return _unescape_word(syntax.text(node))
    if kind == "raw_string":
        return syntax.text(node)[1:-1], True
    if kind == "string_content":
        return _unescape_quoted(syntax.text(node)), True
    if kind == "string":
        known = b""
        for child in node.named_children:
            value, complete = _static_part(child, variables)
            known += value
            if not complete:
                return known, False
        return known, True
    if kind in ("simple_expansion", "expansion"):
        name = _plain_variable(node)
        if name is not None and name in variables and variables[name][0] < node.start_byte:
            return variables[name][1], True
    return b"", False


def _unescape_word(text: bytes) -> tuple[bytes, bool]:
    out = bytearray()
    index = 0
    while index < len(text):
        char = text[index]
        if char == 0x5C:  # backslash
            if index + 1 < len(text):
                out.append(text[index + 1])
            index += 2
            continue
        if char in _GLOB:
            return bytes(out), False
        out.append(char)
        index += 1
    return bytes(out), True


def _unescape_quoted(text: bytes) -> bytes:
    for escaped in (b"$", b"`", b'"', b"\\"):
        text = text.replace(b"\\" + escaped, escaped)
    return text


def _plain_variable(node: Node) -> bytes | None:
    """`$name` or `${name}`, nothing fancier."""
    names = [c for c in node.named_children if c.type == "variable_name"]
    if len(names) != 1 or len(node.named_children) != 1:
        return None
    name = syntax.text(names[0])
    return name if syntax.text(node) in (b"$" + name, b"${" + name + b"}") else None


class _FactCollector:
    """Gathers, from the checker's one walk, what ScriptFacts is made of."""

    def __init__(self) -> None:
        self.assignments: dict[bytes, list[Node]] = {}
        self.other_uses: set[bytes] = set()
        self.words: set[bytes] = set()
        self.commands: list[Node] = []

    def add(self, node: Node) -> None:
        if node.type == "variable_assignment":
            name = node.child_by_field_name("name")
            if name is not None:
                self.assignments.setdefault(syntax.text(name), []).append(node)
        elif node.type == "variable_name":
            parent = node.parent
            if parent is not None and parent.type not in ("variable_assignment", "simple_expansion", "expansion"):
                if not (parent.type == "declaration_command" and syntax.text(parent).split()[0] in (b"export", b"readonly")):
                    self.other_uses.add(syntax.text(node))  # `for NAME in`, `unset NAME`, `local NAME`
        elif node.type == "word":
            self.words.add(syntax.text(node))  # `read NAME`, `printf -v NAME`, `getopts … NAME`
        elif node.type == "command":
            self.commands.append(node)

    def facts(self) -> ScriptFacts:
        variables = self._literal_variables()
        return ScriptFacts(variables, _script_mounts(self.commands, variables))

    def _literal_variables(self) -> dict[bytes, tuple[int, bytes]]:
        """Variables set once in the script to a literal and never touched otherwise."""
        known = {}
        for name, nodes in self.assignments.items():
            if len(nodes) != 1 or name in self.other_uses or name in self.words:
                continue
            node = nodes[0]
            value = node.child_by_field_name("value")
            if any(child.type == "+=" for child in node.children):
                continue
            if node.parent is not None and node.parent.type == "command":
                continue  # `LOG=x cmd` sets it for cmd only
            literal = b"" if value is None else syntax.literal_value(value)
            if literal is not None:
                known[name] = (node.end_byte, literal)
        return known


def _script_mounts(commands: list[Node], variables: dict[bytes, tuple[int, bytes]]) -> list[tuple[int, mounts.Mount | bytes]]:
    """`mount -t nfs4 srv:/x /mnt/x`, `sshfs h:/ /mnt/h`, `umount /mnt/x` in the script, in order."""
    events: list[tuple[int, mounts.Mount | bytes]] = []
    for node in commands:
        model = command.read(node)
        if model.program in _UNMOUNTERS:
            # Paths keep their nodes so `$MNT` can be resolved like any other operand.
            for argument in model.operands:
                path = static_path(argument, variables)
                if path is not None and path.complete and path.value.startswith(b"/"):
                    events.append((node.end_byte, path.value))
            continue
        mount = _mount_command(model, variables)
        if mount is not None:
            events.append((node.end_byte, mount))
    return sorted(events, key=lambda event: event[0])


def _mount_command(model: Command, variables: dict[bytes, tuple[int, bytes]]) -> mounts.Mount | None:
    """The network mount a `mount`, `mount.nfs4`, `sshfs`… command makes, or None."""
    if model.program != b"mount" and model.program not in _MOUNT_HELPERS:
        return None
    fstype = _MOUNT_HELPERS.get(model.program)  # type: ignore[arg-type]
    types = model.option("-t") or model.option("--types")
    if types is not None:
        fstype = None if types.value is None else types.value.decode("utf-8", "replace")
    if len(model.operands) != 2:
        return None
    source = syntax.literal_value(model.operands[0])
    point = static_path(model.operands[1], variables)
    if point is None or not point.complete or not point.value.startswith(b"/"):
        return None
    source_text = "" if source is None else source.decode("utf-8", "replace")
    if fstype is None:  # `mount srv:/export /mnt/x` is NFS, `mount //srv/share /mnt/x` is CIFS
        fstype = "cifs" if source_text.startswith("//") else "nfs" if ":" in source_text else None
    if fstype is None:
        return None
    return mounts.Mount(point.value, fstype.split(",")[0], source_text)


class TeeSlowMountRule(Rule):
    code = "PL102"
    name = "tee-slow-mount"
    severity = Severity.WARNING
    fix_availability = FixAvailability.NEVER

    # What a path may mean depends on the whole script (a variable set once,
    # a `mount` earlier on), so the walk gathers facts and the files that
    # pipelines write, and `finish` judges them.
    node_types = frozenset({"variable_assignment", "variable_name", "word", "command"})

    def check_node(self, node: Node, context: Context) -> Iterator[Finding]:
        self._state(context)[0].add(node)
        return iter(())

    def check_pipeline(self, pipeline: Pipeline, context: Context) -> Iterator[Finding]:
        tee_files, redirects = self._written_files(pipeline)
        if tee_files or redirects:
            self._state(context)[1].append((tee_files, redirects))
        return iter(())

    def finish(self, context: Context) -> Iterator[Finding]:
        collector, written = self._state(context)
        if not written:
            return  # most scripts write no file from a pipeline: skip the facts
        facts = collector.facts()
        system = mounts.load(context.mountinfo)
        prefixes = context.settings.slow_mounts if context.settings is not None else ()
        for tee_files, redirects in written:
            for operand in tee_files:
                place = self._slow(operand, facts, system, prefixes)
                if place is not None:
                    yield self._tee_finding(operand, self._name(operand, facts), place, context)
            for redirect, destination, final in redirects:
                place = self._slow(destination, facts, system, prefixes)
                if place is not None:
                    yield self._redirect_finding(redirect, destination, self._name(destination, facts), place, final)

    def _state(self, context: Context) -> tuple[_FactCollector, list]:
        state = context.memo.get(self.code)
        if state is None:
            state = context.memo[self.code] = (_FactCollector(), [])
        return state

    @staticmethod
    def _written_files(pipeline: Pipeline) -> tuple[list[Node], list[tuple[Node, Node, bool]]]:
        """tee's file operands, and (redirect, destination, is the pipeline's output) for writes."""
        tee_files: list[Node] = []
        redirects: list[tuple[Node, Node, bool]] = []
        last = len(pipeline.stages) - 1
        for index, stage in enumerate(pipeline.stages):
            tee = tee_command.parse(stage)
            tee_files.extend(tee.files if tee else ())
            for redirect in stage.all_redirects:
                if redirect.type != "file_redirect":
                    continue
                descriptor, operator, destination = syntax.redirect_parts(redirect)
                if operator in _WRITES and destination is not None:
                    redirects.append((redirect, destination, index == last and descriptor in (None, 1)))
        return tee_files, redirects

    @staticmethod
    def _slow(node: Node, facts: ScriptFacts, system: mounts.MountTable, prefixes) -> mounts.SlowPlace | None:
        path = static_path(node, facts.variables)
        if path is None:
            return None
        return mounts.slow_place(path.value, path.complete, facts.table(system, node.start_byte), prefixes)

    @staticmethod
    def _name(node: Node, facts: ScriptFacts) -> str:
        """The operand as written, with the path it names when a variable hid it."""
        written = syntax.text(node).decode("utf-8", "replace")
        path = static_path(node, facts.variables)
        if path is not None and path.complete and b"$" in syntax.text(node):
            return f"{written} ({path.value.decode('utf-8', 'replace')})"
        return written

    def _tee_finding(self, operand: Node, name: str, place: mounts.SlowPlace, context: Context) -> Finding:
        message = (
            f"`tee` copies every byte of the pipeline into {name}, on a slow filesystem "
            f"({_where(place)}): every stage waits for its writes ({evidence.TEE_TO_NFS})"
        )
        title = "Log to local disk and copy the file after the pipeline, or write the log after it"
        if "PL602" in context.enabled_codes:
            message += "; `splicecat --tee` keeps it off the pipeline's path (PL602)"
            title += ", or use `splicecat --tee`"
        return self.finding(message, operand.start_byte, operand.end_byte, self.fix(title, Applicability.DISPLAY_ONLY))

    def _redirect_finding(self, redirect: Node, destination: Node, name: str, place: mounts.SlowPlace, final: bool) -> Finding:
        if final:
            what = f"The pipeline's output goes to {name}"
            title = "Write to local disk and move the file to the slow mount after the pipeline"
        else:
            operator = syntax.text(redirect)[: destination.start_byte - redirect.start_byte].strip()
            what = f"`{operator.decode('utf-8', 'replace')}` writes a side file {name}"
            title = "Write the log to local disk and copy it after the pipeline"
        message = f"{what}, on a slow filesystem ({_where(place)}): every stage waits for its writes ({evidence.TEE_TO_NFS})"
        return self.finding(message, redirect.start_byte, redirect.end_byte, self.fix(title, Applicability.DISPLAY_ONLY))


def _where(place: mounts.SlowPlace) -> str:
    if place.reason == "listed in slow-mounts":
        return f"{place.where} is listed in slow-mounts"
    return f"{place.reason} at {place.where}"
