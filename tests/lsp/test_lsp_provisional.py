"""Provisional diagnostics (pipelint/lsp/provisional.py): the same findings as the exact lint, where given.

The differential tests lint random edits of scripts both ways (differential.py);
`python tests/benchmarks/provisional_differential.py` runs the same at scale.
The last tests drive the real server: provisional diagnostics first, then the
exact lint, whose results alone code actions use.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from differential import ACROSS, Tally, exact, mixed_script, rule_examples, shuffled, walk
from large_script import large_script
from lsp_client import (
    code_actions,
    exact_diagnostics,
    file_uri,
    lsp_server,
    open_document,
    published,
    change_document,
    trace_verbosely,
    traced,
)
from lsprotocol import types

from pipelint.engine.config import Settings
from pipelint.lsp import provisional
from pipelint.lsp.reparse import reparse

REPOSITORY = Path(__file__).resolve().parents[2]
DEFAULT = Settings()
EVERY_RULE = Settings(select=("ALL",))


def pieces() -> list[bytes]:
    """Scripts of this repository: each rule's examples, the fixtures, the statements that reach across."""
    found = rule_examples(REPOSITORY / "rules")
    found += [path.read_bytes() for path in sorted((REPOSITORY / "fixtures").glob("*sh"))]
    return found + [ACROSS, large_script(60).encode()]


def run(settings: Settings, seed: int, edits: int, tmp_path: Path) -> Tally:
    rng = random.Random(seed)
    scripts = [mixed_script(pieces(), rng), large_script(120).encode(), ACROSS, shuffled(ACROSS, rng), shuffled(ACROSS, rng)]
    scripts.append(shuffled(ACROSS, rng).replace(b"\n", b"\r\n"))  # CRLF: bash reads the `\r` as part of a word
    tally = Tally()
    for script in scripts:
        walk(exact(script, settings, tmp_path / "script.sh"), edits, rng, settings, tmp_path / "script.sh", tally)
    return tally


@pytest.mark.parametrize("settings", [DEFAULT, EVERY_RULE], ids=["default rules", "every rule"])
def test_random_edits_get_the_exact_findings_where_the_provisional_lint_answers(settings, tmp_path):
    tally = run(settings, seed=11, edits=60, tmp_path=tmp_path)
    assert not tally.mismatches, tally.mismatches[:3]
    # Not a test that passes by skipping: a good share of these (adversarial) edits take the fast path. Edits
    # skipped by design are not counted: those of a script that holds a `# pipelint:` directive under every
    # rule (PL900 reads the whole script), and those of a script with no baseline (a shuffle whose lines the
    # parse guards join: a note). Which shuffle a seed draws depends on every rule document's examples
    # (`pieces`), so adding any rule document could otherwise move the share across the line.
    by_design = sum(count for reason, count in tally.skipped.items() if reason.startswith("PL900 runs"))
    measured = tally.edits - by_design - tally.skipped["no baseline (parse errors, guards, host)"]
    assert tally.fast >= measured // 4, (tally.fast, tally.edits, tally.skipped.most_common())


def test_typing_in_a_function_body_takes_the_fast_path(tmp_path):
    text = large_script(600).encode()
    before = exact(text, DEFAULT, tmp_path / "big.sh")
    at = text.index(b"healthcheck", len(text) // 2) + len(b"healthcheck")
    for typed in (b"x", b" | sort", b"\n    cat f | wc -l", b" $count"):
        after = text[:at] + typed + text[at:]
        tree = reparse(text, before.tree, after)
        found = provisional.lint(before.base, after, tree, DEFAULT, tmp_path / "big.sh")
        assert found == exact(after, DEFAULT, tmp_path / "big.sh", tree).findings


def provisional_of(before: bytes, after: bytes, tmp_path: Path, settings: Settings = DEFAULT):
    base = exact(before, settings, tmp_path / "s.sh")
    return provisional.lint(base.base, after, reparse(before, base.tree, after), settings, tmp_path / "s.sh")


@pytest.mark.parametrize(
    ("before", "after", "why"),
    [
        (b"echo\nf() { cat a | grep x; }\ncat b | f\n", b"echo\ng() { cat a | grep x; }\ncat b | f\n", "facts"),
        (b"x=1\ncat a | wc\necho b\ncat $x | wc\n", b"x=1\ncat a | wc\nread x\ncat $x | wc\n", "a word"),
        (b"cat a | sort | uniq\necho 1\necho 2\n", b"set -o pipefail\ncat a | sort | uniq\necho 1\necho 2\n", "first line"),
        (b"echo 0\ncat a | sort | uniq\necho 1\necho 2\n", b"echo 0\ncat a | sort | uniq\necho 1\nset -e\n", "facts"),
        (b"echo 0\ncat a | grep x\necho 2\n", b"echo 0\ncat a | grep x\necho 2 # pipelint: disable=PL001\n", "directive"),
        (b"echo 0\ncat a | grep x\necho 2\n", b"echo 0\ncat a | grep x\ncat <<EOF\nx\nEOF\n", "here-document"),
        (b"echo 0\ncat a | grep x\necho 2\n", b"echo 0\ncat a | grep x\necho 2 'unclosed\n", "does not parse"),
        # Alone, the touched text ends after `wc -l`'s pipeline and `. ./lib.sh`: tree-sitter-bash #347 joins them
        # (the `.` an argument, no sourcing), where the script's parse has two statements.
        (b"echo 0\ncat in.txt | tee out.txt | wc -l\ncat a | sort > b.txt\ncat f | sort\n",
         b"echo 0\ncat in.txt | tee out.txt | wc -l\n. ./lib.sh\ncat a | sort > b.txt\ncat f | sort\n",
         "parses otherwise on its own"),  # fmt: skip
        # PL103: the copy is mentioned two statements further on: a name the edit types.
        (b"echo 0\ncat a | tee t.log | wc\necho 1\necho 2\necho 3\n",
         b"echo 0\ncat a | tee t.log | wc\necho 1\necho 2\necho t.log\n", "name"),  # fmt: skip
    ],
)
def test_edits_that_may_change_other_statements_findings_get_no_provisional_result(before, after, why, tmp_path):
    with pytest.raises(provisional.Skipped, match=why):
        provisional_of(before, after, tmp_path)


def test_the_statement_before_is_linted_again(tmp_path):
    """`$?` read by the next statement makes the pipeline's status observed (PL001's fix turns unsafe)."""
    before = b"x=1\ncat a | grep x\necho 1\n"
    after = b"x=1\ncat a | grep x\necho $?\n"
    found = provisional_of(before, after, tmp_path)
    assert found == exact(after, DEFAULT, tmp_path / "s.sh").findings
    assert found != exact(before, DEFAULT, tmp_path / "s.sh").findings


def test_multi_statement_rules_run_on_the_whole_script(tmp_path):
    """PL304 at the dump reads the restore two statements on, and quotes its line."""
    before = b"mysqldump db > d.sql\necho a\necho b\nmysql db2 < d.sql\n"
    after = b"mysqldump db > d.sql\necho a\necho b\necho c\nmysql db2 < d.sql\n"
    found = provisional_of(before, after, tmp_path)
    assert [f.code for f in found] == ["PL304"]
    assert found == exact(after, DEFAULT, tmp_path / "s.sh").findings
    assert "line 5" in found[0].message


def test_findings_after_the_edit_move_with_it(tmp_path):
    before = b"echo 0\necho 1\necho 2\necho 3\ncat a | grep x\n"
    after = b"echo 0\necho 1 plus more words\necho 2\necho 3\ncat a | grep x\n"
    found = provisional_of(before, after, tmp_path)
    assert found == exact(after, DEFAULT, tmp_path / "s.sh").findings
    assert found[0].start == after.index(b"cat a")


# -- the real server ------------------------------------------------------------

pytestmark_server = pytest.mark.asyncio(loop_scope="function")


@pytestmark_server
async def test_a_change_gets_provisional_diagnostics_then_code_actions_from_the_exact_lint(tmp_path):
    text = large_script(1500)
    at = text.index("healthcheck", len(text) // 2) + len("healthcheck")
    async with lsp_server(tmp_path, env={"PIPELINT_LSP_LINT_IN": "process"}) as client:
        trace_verbosely(client)
        uri = file_uri(tmp_path / "big.sh")
        open_document(client, uri, text)
        await published(client, uri, version=1)
        await exact_diagnostics(client, uri, 1)
        mark, marked = len(client.published), len(client.traces)
        edited = text[:at] + "x" + text[at:]
        change_document(client, uri, edited, 2)
        first = await published(client, uri, version=2, after=mark)
        provisional_trace = await traced(client, f"provisional diagnostics of {uri} version 2: published", marked, 60)
        # Code actions asked for at once wait for the exact lint: quick fixes of the line edited.
        line = edited[:at].count("\n")
        actions = await code_actions(client, uri, types.Range(types.Position(line, 0), types.Position(line, 200)))
        answered = time.perf_counter()
        done = await exact_diagnostics(client, uri, 2, after=marked)
        assert provisional_trace.at <= done.at <= answered
        assert any(action.title.startswith("PL001") for action in actions)
        # The exact diagnostics were the same: not published again.
        assert "the same as the provisional ones" in done.message
        assert [p.params.version for p in client.published[mark:]] == [2]
        assert len(first.params.diagnostics) == len(client.published[0].params.diagnostics)


@pytestmark_server
async def test_a_change_the_fast_path_cannot_take_gets_the_exact_diagnostics_only(tmp_path):
    text = "echo 0\ncat a | grep x\necho 1\n"
    async with lsp_server(tmp_path, env={"PIPELINT_LSP_LINT_IN": "process"}) as client:
        trace_verbosely(client)
        uri = file_uri(tmp_path / "s.sh")
        open_document(client, uri, text)
        await exact_diagnostics(client, uri, 1)
        mark, marked = len(client.published), len(client.traces)
        change_document(client, uri, "set -e\n" + text, 2)
        await exact_diagnostics(client, uri, 2, after=marked)
        assert [p.params.version for p in client.published[mark:]] == [2]
        assert any("provisional diagnostics" in t.message and ": none (" in t.message for t in client.traces[marked:])
