"""Code actions from the real server, applied to the text, re-linted, and run with bash."""

from __future__ import annotations

import pytest
from harness import assert_same_behaviour, fix
from lsp_client import apply_workspace_edit, change_document, code_actions, diagnostics, file_uri, open_document, published
from lsprotocol import types

pytestmark = pytest.mark.asyncio(loop_scope="module")

SCRIPT = (
    "#!/bin/bash\n"
    "echo start\n"
    "cat access.log | grep 500\n"
    "cat access.log 2>/dev/null | wc -l\n"
    "sort words.txt | cat | uniq -c\n"
    "cat dump.sql | mysql shop\n"
    "echo end\n"  # the last pipeline's status would be the script's: its fix would be unsafe
)


async def opened(client, workspace, text, name="job.sh"):
    uri = file_uri(workspace / name)
    open_document(client, uri, text)
    return uri, await diagnostics(client, uri, version=1)


async def relint(client, uri, text, version):
    change_document(client, uri, text, version)
    return await diagnostics(client, uri, version=version)


def titled(actions, title):
    matching = [a for a in actions if a.title == title]
    assert len(matching) == 1, [a.title for a in actions]
    return matching[0]


async def test_quick_fix_rewrites_the_pipeline_and_the_result_lints_clean(client, workspace, tmp_path):
    uri, found = await opened(client, workspace, SCRIPT)
    target = found[0]
    assert (target.code, target.range.start.line) == ("PL001", 2)
    actions = await code_actions(client, uri, target.range)
    action = titled(actions, "PL001: Redirect access.log into grep")
    assert action.kind == types.CodeActionKind.QuickFix
    assert action.is_preferred
    assert [d.code for d in action.diagnostics] == ["PL001"]
    fixed = apply_workspace_edit(SCRIPT, uri, action.edit, version=1)
    assert fixed == SCRIPT.replace("cat access.log | grep 500", "grep 500 < access.log")
    after = await relint(client, uri, fixed, 2)
    assert [(d.code, d.range.start.line) for d in after] == [(d.code, d.range.start.line) for d in found[1:]]
    assert_same_behaviour(SCRIPT.encode(), fixed.encode(), tmp_path, "bash")


async def test_unsafe_fix_is_labelled_and_not_preferred(client, workspace, tmp_path):
    uri, found = await opened(client, workspace, SCRIPT)
    target = found[1]
    assert target.range.start.line == 3
    action = titled(await code_actions(client, uri, target.range), "PL001: Redirect access.log into wc (unsafe fix)")
    assert not action.is_preferred
    fixed = apply_workspace_edit(SCRIPT, uri, action.edit)
    assert "wc -l < access.log\n" in fixed
    # An unsafe fix: the success path
    assert_same_behaviour(SCRIPT.encode(), fixed.encode(), tmp_path, "bash", inputs=())


async def test_edit_ranges_hold_after_non_ascii_and_emoji(client, workspace, tmp_path):
    text = '#!/bin/bash\necho "héllo 😀 wörld"; cat access.log | grep 500\necho end\n'
    uri, (target,) = await opened(client, workspace, text)
    action = titled(await code_actions(client, uri, target.range), "PL001: Redirect access.log into grep")
    fixed = apply_workspace_edit(text, uri, action.edit)  # positions counted in UTF-16 here
    assert fixed == '#!/bin/bash\necho "héllo 😀 wörld"; grep 500 < access.log\necho end\n'
    assert await relint(client, uri, fixed, 2) == []
    # Success path: the rules' error path is issue 13 class 10 (tests/rules)
    assert_same_behaviour(text.encode(), fixed.encode(), tmp_path, "bash", inputs=())


async def test_a_bare_cursor_inside_a_finding_is_enough(client, workspace):
    uri, found = await opened(client, workspace, SCRIPT)
    cursor = types.Position(found[0].range.start.line, found[0].range.start.character + 3)
    actions = await code_actions(client, uri, types.Range(cursor, cursor))
    assert "PL001: Redirect access.log into grep" in [a.title for a in actions]


async def test_no_quick_fixes_away_from_findings(client, workspace):
    uri, _ = await opened(client, workspace, SCRIPT)
    line = types.Position(1, 2)  # `echo start`
    actions = await code_actions(client, uri, types.Range(line, line), only=[types.CodeActionKind.QuickFix])
    assert actions == []


async def test_fix_all_applies_what_check_fix_applies(client, workspace, tmp_path):
    uri, _ = await opened(client, workspace, SCRIPT)
    everything = types.Range(types.Position(0, 0), types.Position(6, 0))
    (action,) = await code_actions(client, uri, everything, only=["source.fixAll"])
    assert action.kind == "source.fixAll.pipelint"
    fixed = apply_workspace_edit(SCRIPT, uri, action.edit, version=1)
    assert fixed.encode() == fix(SCRIPT, path="job.sh")  # safe fixes only, as `pipelint check --fix`
    remaining = await relint(client, uri, fixed, 2)
    assert [(d.code, d.range.start.line) for d in remaining] == [("PL001", 3)]  # the unsafe one
    # Success path: the rules' error path is issue 13 class 10 (tests/rules)
    assert_same_behaviour(SCRIPT.encode(), fixed.encode(), tmp_path, "bash", inputs=())


async def test_fix_all_follows_the_unsafe_fixes_setting(client, workspace, tmp_path):
    (workspace / ".pipelint.toml").write_text("unsafe-fixes = true\n")
    uri, _ = await opened(client, workspace, SCRIPT)
    (action,) = await code_actions(client, uri, types.Range(types.Position(0, 0), types.Position(0, 0)), only=["source"])
    fixed = apply_workspace_edit(SCRIPT, uri, action.edit)
    assert fixed.encode() == fix(SCRIPT, path="job.sh", unsafe=True)
    assert await relint(client, uri, fixed, 2) == []
    # Unsafe fixes: the success path
    assert_same_behaviour(SCRIPT.encode(), fixed.encode(), tmp_path, "bash", inputs=())


async def test_fix_all_next_to_quick_fixes_is_resolved_on_demand(client, workspace):
    uri, found = await opened(client, workspace, SCRIPT)
    actions = await code_actions(client, uri, found[0].range)
    lazy = titled(actions, "pipelint: fix all auto-fixable problems")
    assert lazy.edit is None  # computed only if the user picks it
    resolved = await client.code_action_resolve_async(lazy)
    assert apply_workspace_edit(SCRIPT, uri, resolved.edit).encode() == fix(SCRIPT, path="job.sh")


async def test_no_fix_all_when_nothing_safe_is_fixable(client, workspace):
    text = "#!/bin/bash\ncat access.log 2>/dev/null | wc -l\n"
    uri, found = await opened(client, workspace, text)
    assert [d.code for d in found] == ["PL001"]
    assert await code_actions(client, uri, found[0].range, only=["source.fixAll"]) == []


async def test_quick_fixes_are_for_the_latest_text_only(client, workspace):
    """Before the lint of the newest text there is no quick fix (a stale one would name
    an old version and old ranges); once its diagnostics arrive, the fix is for it."""
    uri, _ = await opened(client, workspace, "#!/bin/bash\necho start\n")
    text = "#!/bin/bash\ncat access.log | grep 500\necho end\n"
    mark = len(client.published)
    change_document(client, uri, text, version=2)
    at = types.Position(1, 1)
    early = await code_actions(client, uri, types.Range(at, at))
    # [] or, if the lint of version 2 was quick enough, its fix; never a stale action.
    assert all(a.edit.document_changes[0].text_document.version == 2 for a in early if a.edit)
    await published(client, uri, version=2, after=mark)
    action = titled(await code_actions(client, uri, types.Range(at, at)), "PL001: Redirect access.log into grep")
    assert action.edit.document_changes[0].text_document.version == 2
    assert apply_workspace_edit(text, uri, action.edit, version=2) == "#!/bin/bash\ngrep 500 < access.log\necho end\n"


@pytest.mark.parametrize(
    ("script", "line", "title", "expected"),
    [
        (
            "#!/bin/bash\necho start\ncat access.log | grep 500\nsort words.txt | cat | uniq -c\n",
            2,
            "Disable PL001 for this command",
            "#!/bin/bash\necho start\n# pipelint: disable=PL001\ncat access.log | grep 500\nsort words.txt | cat | uniq -c\n",
        ),
        (
            "#!/bin/bash\ncat access.log | grep 500\n",
            1,
            "Disable PL001 for this file",
            "#!/bin/bash\n# pipelint: disable=PL001\ncat access.log | grep 500\n",
        ),
        (
            "#!/bin/bash\ncount() {\n    cat access.log | grep -c 500\n}\ncount\n",
            2,
            "Disable PL001 for this command",
            "#!/bin/bash\ncount() {\n    # pipelint: disable=PL001\n    cat access.log | grep -c 500\n}\ncount\n",
        ),
        (
            "#!/bin/bash\necho start\nif true; then cat access.log | grep 500; fi\n",
            2,
            "Disable PL001 for this command",
            "#!/bin/bash\necho start\nif true; then\n# pipelint: disable=PL001\ncat access.log | grep 500; fi\n",
        ),
        (
            "#!/bin/bash\necho start\n  # pipelint: disable=PL003\n  cat access.log | grep 500\n",
            3,
            "Disable PL001 for this command",
            "#!/bin/bash\necho start\n  # pipelint: disable=PL003,PL001\n  cat access.log | grep 500\n",
        ),
    ],
)
async def test_disable_inserts_a_directive_that_silences_the_finding(client, workspace, tmp_path, script, line, title, expected):
    uri, found = await opened(client, workspace, script)
    (target,) = [d for d in found if d.range.start.line == line]
    action = titled(await code_actions(client, uri, target.range), title)
    assert action.kind == types.CodeActionKind.QuickFix
    disabled = apply_workspace_edit(script, uri, action.edit)
    assert disabled == expected
    after = await relint(client, uri, disabled, 2)
    others = [(d.code, d.message) for d in found if d is not target]
    assert [(d.code, d.message) for d in after] == others
    assert_same_behaviour(script.encode(), disabled.encode(), tmp_path, "bash")
