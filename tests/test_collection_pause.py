"""The cyclic garbage collector is paused while a file is linted (`linter.process`), and left as it was found.

Paused, garbage in a cycle lives until the file is done: a cycle per
pipeline would grow a large script's memory with its pipelines' models, and
one through the file's context would keep all of them, and its tree, until the
next collection.
"""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from pipelint.engine import linter
from pipelint.engine.config import Settings

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
DENSE = b'cat "data.txt" | grep -v foo | sort > out.txt\nif [ -f x ]; then echo "hi" | tr a b; fi\n'


def _lint(source: bytes, fix: bool = False) -> linter.FileReport:
    return linter.process(source, "dense.sh", Settings(), None, fix=fix)


def test_the_collector_is_paused_during_a_lint_and_enabled_after(monkeypatch):
    seen = []
    lint = linter.lint
    monkeypatch.setattr(linter, "lint", lambda *a, **k: seen.append(gc.isenabled()) or lint(*a, **k))
    assert gc.isenabled()
    report = _lint(DENSE, fix=True)
    assert report.fixed and seen and not any(seen)
    assert gc.isenabled()


def test_a_collector_disabled_by_the_caller_stays_disabled():
    gc.disable()
    try:
        _lint(DENSE)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_collector_is_enabled_again_when_the_lint_raises(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug outside the rules")

    monkeypatch.setattr(linter, "lint", broken)
    with pytest.raises(RuntimeError):
        _lint(DENSE)
    assert gc.isenabled()


# What asks the script facts: a mount and its unmount, a variable set once, a function, a
# sourced file, a loop, steps of a serialized transfer, a script run over ssh.
FACTS = b"""#!/bin/bash
set -eo pipefail
LOG=/mnt/nfs/build.log
mount -t nfs server:/export /mnt/nfs
backup() { tar -cf - "$1" | gzip > "$2"; }
. ./lib.sh
for f in *.sql; do cat "$f" | mysql db; done
make 2>&1 | tee "$LOG" | tail -1
gzip -c dump.sql > dump.sql.gz
scp dump.sql.gz host:/tmp/
ssh host 'gunzip < /tmp/dump.sql.gz | mysql db'
umount /mnt/nfs
"""

# Those, the dense script and every fixture (a loop, here-documents, ssh, a Dockerfile), with every rule on.
SCRIPTS = {
    "dense": DENSE * 50,
    "facts": FACTS,
    **{path.name: path.read_bytes() for path in sorted(FIXTURES.iterdir()) if path.is_file()},
}


@pytest.mark.parametrize("fix", [False, True], ids=["check", "fix"])
@pytest.mark.parametrize("name", SCRIPTS)
def test_a_lint_leaves_nothing_of_its_own_in_a_cycle(name, fix):
    """Its context, facts, pipelines and command models all go by reference counting, as soon as it is done."""
    settings = Settings(select=("ALL",), slow_mounts=("/",))  # PL102 reads every path written
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        report = linter.process(SCRIPTS[name], name, settings, None, fix=fix)
        gc.collect()
        left = sorted({type(thing).__qualname__ for thing in gc.garbage if type(thing).__module__.startswith("pipelint")})
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert report.crashes == []
    assert left == [], "what is in a cycle lives, with all it refers to, until the end of the file"
