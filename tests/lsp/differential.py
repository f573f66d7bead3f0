"""The provisional lint against the exact one, on random edits (test_lsp_provisional.py, and
tests/benchmarks/provisional_differential.py at scale).

For an edit of a text, `compare` lints the text before (exactly, as the
worker does, keeping its baseline), then the text after both ways: where the
provisional lint gives a result, it must be the exact lint's finding for
finding (code, span, message, fix, help).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from pipelint.shell import syntax
from pipelint.finding import Finding
from pipelint.lsp import provisional
from pipelint.engine.config import Settings
from pipelint.lsp.reparse import reparse

# What a typist and an editor do to a script.
WORDS = [b"x", b"grep", b"-v", b" foo", b"$dir", b'"$f"', b"|", b"; ", b"&& ", b"}", b"{", b"(", b")", b"'", b'"', b"#",
         b"\n", b"\\\n", b"<", b">", b"2>&1", b"$(", b"`", b"=", b"set -e", b"f() { :; }", b"local v=1", b"done",
         b"fi", b"then", b"cat", b"tee t.log", b"sort", b"uniq -c", b"exit", b"$?", b"trap", b"alias", b"<<EOF\n",
         b"do", b"for i in 1 2; do", b"while read l; do", b"if [ -d x ]; then", b"ssh h", b"gzip", b"PIPESTATUS"]  # fmt: skip
PIPELINES = [
    b"cat access.log | grep -v healthcheck | sort | uniq -c > out.txt\n",
    b"cat f | wc -l\n",
    b"echo \"$line\" | cut -d' ' -f1\n",
    b"cat a b | tee copy.log | gzip > a.gz\n",
    b"sort f | uniq\n",
    b"dd if=/dev/zero bs=512 count=10 | cat > x\n",
    b"mysqldump db > d.sql\nmysql db2 < d.sql\n",
    b"gzip -c db.sql > db.gz\nscp db.gz host:\n",
]


# Statements whose findings depend on others: what the provisional lint must see change.
ACROSS = b"""\
cat access.log | grep -v health | tee debug.log | sort > sorted.txt
cat in.txt | tee out.txt | wc -l
cat a | sort > b.txt
cat f | grep x
echo $?
wc -l sorted.txt
set -o pipefail
cat f | sort | uniq
x=-n
cat $x | wc -l
echo "done with out.txt"
log=/tmp/run.log
cat $log | grep error
g() { cat f | grep y; }
cat g.txt | g
alias grep='grep --color'
cat b.txt
trap 'echo bye' ERR
cat last | grep z
"""
NEXT_LINES = [b"echo $?\n", b"exit\n", b"return\n", b"set -e\n", b"set +e\n", b"echo \"${PIPESTATUS[@]}\"\n", b"# a comment\n",
              b". ./lib.sh\n", b"IFS=:\n", b"unset x\n", b"read -r log\n", b"rc=$?\n", b"exit $?\n",
              b"if [ $? -ne 0 ]; then exit 1; fi\n"]  # fmt: skip


# What each kind of random_edit does, for the counts per kind.
KINDS = ["a character typed", "characters deleted", "a word typed", "a pipeline pasted", "a line deleted",
         "a closer deleted", "characters replaced", "a line duplicated", "a character typed in a pipeline word",
         "a word of the script typed elsewhere", "a line (un)commented", "a status reader or option line added",
         "a status reader or option line added"]  # fmt: skip


def random_edit(rng: random.Random, text: bytes) -> bytes:
    """text after one edit a person might make: typing, deleting, pasting, a line added or gone."""
    return edit_of_kind(rng, text, rng.randrange(len(KINDS)))


def edit_of_kind(rng: random.Random, text: bytes, kind: int) -> bytes:
    if not text:
        return rng.choice(PIPELINES)
    at = rng.randrange(len(text) + 1)
    if kind == 9:  # a word of the script typed elsewhere (a file named again, a name used)
        words = text.split()
        files = [word for word in words if b"." in word.strip(b".")]
        if files and rng.random() < 0.7:
            words = files
        return text[:at] + rng.choice(words) + text[at:] if words else text
    if kind == 10:  # a line commented out, or a comment's `#` deleted
        line = text.rfind(b"\n", 0, at) + 1
        if text[line : line + 1] == b"#":
            return text[:line] + text[line + 1 :]
        return text[:line] + b"#" + text[line:]
    if kind >= 11:  # a line after this one that reads the status, sets an option, …
        end = text.find(b"\n", at)
        end = len(text) if end < 0 else end + 1
        return text[:end] + rng.choice(NEXT_LINES) + text[end:]
    if kind == 0:  # one character typed
        return text[:at] + bytes([rng.choice(b"abcxyz $|;&(){}'\"\n#<>=\\-")]) + text[at:]
    if kind == 1:  # one or a few characters deleted
        return text[:at] + text[at + rng.randint(1, 3) :]
    if kind == 2:  # a word typed
        return text[:at] + rng.choice(WORDS) + text[at:]
    if kind == 3:  # a pipeline pasted on a line of its own
        line = text.rfind(b"\n", 0, at) + 1
        return text[:line] + rng.choice(PIPELINES) + text[line:]
    if kind == 4:  # a line deleted
        line = text.rfind(b"\n", 0, at) + 1
        end = text.find(b"\n", at)
        return text[:line] + (text[end + 1 :] if end >= 0 else b"")
    if kind == 5:  # a `}` (or `fi`, `done`) deleted
        for closer in (b"}", b"fi", b"done"):
            found = text.find(closer, at)
            if found >= 0:
                return text[:found] + text[found + len(closer) :]
        return text
    if kind == 6:  # a few characters replaced
        return text[:at] + rng.choice(WORDS) + text[at + rng.randint(1, 6) :]
    if kind == 7:  # a line duplicated
        line = text.rfind(b"\n", 0, at) + 1
        end = text.find(b"\n", at)
        end = len(text) if end < 0 else end + 1
        return text[:end] + text[line:end] + text[end:]
    # a character typed inside a word of a pipeline (the benchmark's kind of edit)
    bar = text.find(b"| ", at)
    if bar < 0:
        return text[:at] + b"x" + text[at:]
    return text[: bar + 2] + b"x" + text[bar + 2 :]


def rule_examples(docs: Path) -> list[bytes]:
    """The shell blocks of each rule's documentation (rules/*.md), one script per rule."""
    scripts = []
    for doc in sorted(docs.glob("PL*.md")):
        blocks = re.findall(r"```(?:sh|bash)\n(.*?)```", doc.read_text(encoding="utf-8"), re.S)
        if blocks:
            scripts.append(("#!/bin/bash\n" + "\n".join(blocks)).encode())
    return scripts


def mixed_script(pieces: list[bytes], rng: random.Random, functions: int = 40) -> bytes:
    """A larger script of the pieces, at the top level and as function bodies, in a random order."""
    out = [b"#!/bin/bash\n"]
    for index in range(functions):
        piece = rng.choice(pieces).split(b"\n", 1)[-1] if rng.random() < 0.9 else rng.choice(pieces)
        if rng.random() < 0.5:
            out.append(b"step_%d() {\n%s\n}\n" % (index, piece.strip(b"\n")))
        else:
            out.append(piece.strip(b"\n") + b"\n")
    return b"".join(out)


def shuffled(script: bytes, rng: random.Random) -> bytes:
    """The script's lines in another order (ACROSS: other statements between those that depend on each other)."""
    lines = script.splitlines(keepends=True)
    rng.shuffle(lines)
    return b"".join(lines)


@dataclass
class Exact:
    source: bytes
    tree: object
    findings: list[Finding]
    base: provisional.Base | None


def exact(source: bytes, settings: Settings, path: Path, tree=None) -> Exact:
    """The exact lint, as the worker makes it, with the baseline a provisional lint starts from."""
    tree = tree if tree is not None else syntax.parse(source)
    report, line = provisional.exact_lint(source, str(path), settings, path, tree)
    base = provisional.Base(source, report.findings, line, settings) if line is not None else None
    return Exact(source, tree, report.findings, base)


def key(finding: Finding) -> tuple:
    return (finding.start, finding.end, finding.code, finding.message, repr(finding.fix), finding.help or "")


@dataclass
class Tally:
    edits: int = 0
    fast: int = 0  # the provisional lint gave a result
    skipped: Counter = field(default_factory=Counter)  # why not
    mismatches: list[tuple[bytes, bytes, str]] = field(default_factory=list)
    kinds: Counter = field(default_factory=Counter)  # edits per kind (KINDS)
    fast_kinds: Counter = field(default_factory=Counter)  # of which the provisional lint answered


def walk(start: Exact, edits: int, rng: random.Random, settings: Settings, path: Path, tally: Tally) -> None:
    """Edits one after another from start; after one that leaves no baseline (a parse error), from start again."""
    current = start
    for _ in range(edits):
        kind = KINDS[rng.randrange(len(KINDS))]
        fast = tally.fast
        after = compare(current, edit_of_kind(rng, current.source, KINDS.index(kind)), settings, path, tally)
        tally.kinds[kind] += 1
        tally.fast_kinds[kind] += tally.fast - fast
        current = after if after.base is not None else start


def compare(before: Exact, after_source: bytes, settings: Settings, path: Path, tally: Tally) -> Exact:
    """One edit: the provisional lint of after_source from before, against its exact lint; the exact one."""
    tally.edits += 1
    tree = reparse(before.source, before.tree, after_source)
    after = exact(after_source, settings, path, tree)
    if before.base is None:
        tally.skipped["no baseline (parse errors, guards, host)"] += 1
        return after
    try:
        found = provisional.lint(before.base, after_source, tree, settings, path)
    except provisional.Skipped as reason:
        tally.skipped[str(reason)] += 1
        return after
    tally.fast += 1
    if sorted(map(key, found)) != sorted(map(key, after.findings)):
        missing = sorted(set(map(key, after.findings)) - set(map(key, found)))
        extra = sorted(set(map(key, found)) - set(map(key, after.findings)))
        tally.mismatches.append((before.source, after_source, f"missing {missing[:3]}, extra {extra[:3]}"))
    return after
