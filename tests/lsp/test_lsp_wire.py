"""The diagnostics' JSON the worker writes is what pygls would send for the same lsprotocol Diagnostics.

The reference below builds each Diagnostic field by field, as the server did
before it wrote JSON itself, and lets pygls' converter turn it into JSON.
"""

from __future__ import annotations

import json

import pytest
from large_script import large_script
from lsp_client import REPOSITORY, failure_diagnostic, take_snapshot
from lsprotocol import types

from pipelint.lsp.diagnostics import CONVERTER, SEVERITIES
from pipelint.output.common import rule_url
from pipelint.shell.positions import Encoding

SCRIPTS = {
    "large": large_script(400),
    "non-ascii": "#!/bin/bash\necho 'héllo wörld' ; cat 'naïve 😀.log' | grep 'ü'\r\nsort w | cat | uniq -c\rcat x | wc -l\n",
    "broken": "#!/bin/sh\ncat access.log | grep 500\nif true; then\n  cat a | grep b\n",
    **{path.name: path.read_text() for path in sorted((REPOSITORY / "fixtures").glob("*sh")) if path.name != "clean.sh"},
}


def reference(snapshot, encoding: Encoding) -> list[dict]:
    found = []
    for finding in snapshot.findings:
        start = snapshot.index.position(finding.start, encoding)
        end = snapshot.index.position(finding.end, encoding)
        fix = finding.fix
        found.append(
            types.Diagnostic(
                range=types.Range(types.Position(start.line, start.column), types.Position(end.line, end.column)),
                message=finding.message,
                severity=SEVERITIES[finding.severity],
                code=finding.code,
                code_description=types.CodeDescription(href=rule_url(finding)),
                source="pipelint",
                data={"name": finding.name, "fix": fix.applicability.value if fix is not None and fix.edits else None},
            )
        )
    note = failure_diagnostic(snapshot, encoding)
    return CONVERTER.unstructure(found + ([note] if note is not None else []), list[types.Diagnostic])


@pytest.mark.parametrize("encoding", [Encoding.UTF16, Encoding.UTF8, Encoding.CHARACTERS])
@pytest.mark.parametrize("name", list(SCRIPTS))
def test_the_workers_json_is_pygls_json(tmp_path, name, encoding):
    snapshot = take_snapshot(f"file://{tmp_path}/{name}.sh", 1, SCRIPTS[name], "shellscript", tmp_path, encoding)
    assert snapshot.findings, "a script without findings proves nothing here"
    assert json.loads(snapshot.diagnostics) == reference(snapshot, encoding)
    assert snapshot.diagnostics.isascii()  # Content-Length counts characters: they must be bytes


def test_a_kept_finding_moves_with_its_line(tmp_path):
    """The part kept per finding leaves out the range: a line added above moves the diagnostic."""
    text = "#!/bin/sh\ncat a | grep b\n"
    before = json.loads(take_snapshot("untitled:a", 1, text, "shellscript", tmp_path).diagnostics)
    after = json.loads(take_snapshot("untitled:a", 2, "echo\n" + text, "shellscript", tmp_path).diagnostics)
    assert [d["range"]["start"]["line"] for d in before + after] == [1, 2]
    assert {**before[0], "range": None} == {**after[0], "range": None}
