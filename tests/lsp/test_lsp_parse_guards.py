"""The "Disable" action where tree-sitter-bash misreads: never inside a here-document body, and before bash's statement."""

from __future__ import annotations

import pytest
from harness import assert_same_behaviour, lint
from lsp_client import apply_workspace_edit, code_actions, diagnostics, file_uri, open_document

from pipelint.shell import syntax
from pipelint.finding import apply_edits
from pipelint.lsp.directive import disable_edit

IN_THE_SERVER = pytest.mark.asyncio(loop_scope="module")

# tree-sitter-bash ends the body at the tab-indented EOF; bash writes all of it to job.sh.
JOB = "cat > job.sh <<EOF\nbody\n\tEOF\ncat access.log | sort\nEOF\ncat job.sh\n"
JOINED = "#!/bin/bash\n[ 1 -eq 0 ]\ncat access.log | grep 500\necho r > k\n[ 1 ]\n"


def test_no_directive_lands_in_a_body_even_where_tree_sitter_sees_a_command():
    source = JOB.encode()
    offset = source.index(b"cat access.log")
    # tree-sitter's own parse has `cat access.log | sort` as a statement there.
    assert disable_edit(source, syntax.parse(source), "PL001", offset) is None


@IN_THE_SERVER
async def test_a_finding_in_a_joined_statement_is_disabled_on_its_own_line(client, workspace, tmp_path):
    uri = file_uri(workspace / "joined.sh")
    open_document(client, uri, JOINED)
    (target,) = await diagnostics(client, uri, version=1)
    assert (target.code, target.range.start.line) == ("PL001", 2)
    actions = await code_actions(client, uri, target.range)
    (action,) = [a for a in actions if a.title == "Disable PL001 for this command"]
    disabled = apply_workspace_edit(JOINED, uri, action.edit)
    # Before line 3, not before the `[` on line 2 that tree-sitter made the statement start at.
    assert disabled == JOINED.replace("cat access.log", "# pipelint: disable=PL001\ncat access.log")
    assert lint(disabled) == []
    assert_same_behaviour(JOINED.encode(), disabled.encode(), tmp_path, "bash")


@IN_THE_SERVER
async def test_nothing_to_disable_inside_a_body(client, workspace):
    uri = file_uri(workspace / "job.sh")
    open_document(client, uri, JOB)
    assert list(await diagnostics(client, uri, version=1)) == []


def test_the_directive_edit_is_verified_on_the_engines_parse():
    source = JOINED.encode()
    (finding,) = lint(source)
    found = disable_edit(source, syntax.parse(source), "PL001", finding.start)
    # On tree-sitter's own parse the statement starts at `[`: a directive there
    # covers only `[ 1 -eq 0 ]` for bash, so it is refused, not offered.
    assert found is None or lint(apply_edits(source, [found.edit])) == []
