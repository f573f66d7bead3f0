"""exit_status: when a script can see a pipeline's status, checked against real bash.

Each case has one pipeline, `@PIPE@`. The script runs twice under bash, once
with `true | true` and once with `true | false` in its place: the two runs
differ (stdout, stderr, exit status) exactly when the status is observed.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from harness import context_of, pipeline_roots

from pipelint.facts import exit_status
from pipelint.shell import syntax

OBSERVED = [
    "@PIPE@\n",
    "set -e\n@PIPE@\necho after\n",
    "set -euo pipefail\n@PIPE@\necho after\n",
    "#!/bin/bash -e\n@PIPE@\necho after\n",
    "trap 'echo failed' ERR\n@PIPE@\necho after\n",
    "@PIPE@\necho \"rc=$?\"\n",
    "@PIPE@\nexit\n",
    "if @PIPE@; then echo yes; fi\n",
    "while @PIPE@; do echo once; break; done\necho after\n",
    "@PIPE@ && echo yes\necho after\n",
    "@PIPE@ || echo no\necho after\n",
    "! @PIPE@\n",
    "f() { @PIPE@; }\nf && echo yes\n",
    "x=$(@PIPE@)\necho \"rc=$?\"\n",
    "( @PIPE@ )\n",
    "{ echo a; @PIPE@; } > /dev/null\n",
    "for i in 1; do @PIPE@; done\n",
    "case a in a) @PIPE@;; esac\n",
    "if true; then @PIPE@; else echo; fi\n",
    "echo a && @PIPE@\n",
    "for i in 1 2; do @PIPE@; set -e; done\necho after\n",
    "while true; do @PIPE@; set -e; [ -n \"$again\" ] && break; again=1; done\necho after\n",
    "eval 'set -e'\n@PIPE@\necho after\n",
    # Neighbours of a `set +e` that must stay observed (facts.option_at follows it only where provable).
    "set -e\nset +e\nf() { set -e; }\nf\n@PIPE@\necho after\n",  # a function called between turns it on again
    "set -e\nset +e\nf() { @PIPE@; echo in; }\nset -e\nf\necho after\n",  # a function runs where it is called
    "set +e\nfor i in 1 2; do @PIPE@; set -e; done\necho after\n",  # the next iteration runs `set -e` first
    "printf 'set -e\\n' > lib.sh\nset +e\n. ./lib.sh\n@PIPE@\necho after\n",  # a sourced file turns it on
    "set -e\nfalse && set +e\n@PIPE@\necho after\n",  # `set +e` behind `&&` may not run
    "set -e\nif false; then set +e; fi\n@PIPE@\necho after\n",  # nor in a branch
    "set -e\n( set +e )\n@PIPE@\necho after\n",  # a subshell's `set +e` stays there
    "trap 'echo failed' ERR\nset +e\n@PIPE@\necho after\n",  # an ERR trap runs under `set +e` too
    "( set -e; @PIPE@; echo in )\necho after\n",
    "set -e\ncase a in b) set +e;; esac\n@PIPE@\necho after\n",
    "set -e\nif false; then set +e; else @PIPE@; echo in; fi\necho after\n",  # the other branch runs without it
    "set -e\nif false; then :; elif false; then set +e; else @PIPE@; echo in; fi\necho after\n",
]

NOT_OBSERVED = [
    "@PIPE@\necho after\n",
    "@PIPE@\n# a comment\necho after\n",
    "@PIPE@\nset -e\necho after\n",
    "f() { @PIPE@; echo in; }\nf\n",
    "x=$(@PIPE@)\necho after\n",
    'echo "got $(@PIPE@)"\n',
    "local_n() { local n=$(@PIPE@); echo in; }\nlocal_n\n",
    "for i in 1; do @PIPE@; done\necho after\n",
    "if true; then @PIPE@; fi\necho after\n",
    "( @PIPE@ )\necho after\n",
    "echo a && @PIPE@\necho after\n",
    "set -o pipefail\n@PIPE@\necho after\n",
    "cat <(@PIPE@)\n",
    # `set -e` confined to a subshell, and turned off again before the pipeline.
    "( set -e )\n@PIPE@\necho after\n",
    "x=$(set -e; echo)\n@PIPE@\necho after\n",
    "cat <(set -e)\n@PIPE@\necho after\n",
    "set -e\nset +e\n@PIPE@\necho after\n",
    "#!/bin/bash -e\nset +e\n@PIPE@\necho after\n",
    "set -euo pipefail\nset +eu\n@PIPE@\necho after\n",
    "set -e\nset +o errexit 2>/dev/null\n@PIPE@\necho after\n",
    "set -e\nf() { set +e; @PIPE@; echo in; }\nf\necho after\n",
    "set -e\nfor i in 1 2; do set +e; @PIPE@; set -e; done\necho after\n",
    "set -e\nif true; then set +e; @PIPE@; echo in; fi\necho after\n",
    "set -e\nset +e\nwhile [ -z \"$again\" ]; do @PIPE@; again=1; done\necho after\n",
]


def _observed(script: str) -> tuple[bool, bool]:
    source = script.replace("@PIPE@", "true | true").encode()
    context = context_of(source)
    (statement,) = pipeline_roots(context.root)
    return exit_status.status_observed(statement, context.facts), exit_status.stage_status_observed(statement, context.facts)


def _run(script: str, pipe: str, folder: Path) -> tuple[bytes, bytes, int]:
    """Run as a file, so that a `#!/bin/bash -e` line counts."""
    path = folder / "script"
    path.write_text(script.replace("@PIPE@", pipe) if script.startswith("#!") else "#!/bin/bash\n" + script.replace("@PIPE@", pipe))
    path.chmod(0o755)
    done = subprocess.run([str(path)], capture_output=True, timeout=30, cwd=folder)
    return done.stdout, done.stderr.replace(str(path).encode(), b"script"), done.returncode


@pytest.mark.parametrize("script", OBSERVED)
def test_observed(script, tmp_path):
    assert _observed(script)[0]
    assert _run(script, "true | true", tmp_path) != _run(script, "true | false", tmp_path)


@pytest.mark.parametrize("script", NOT_OBSERVED)
def test_not_observed(script, tmp_path):
    assert not _observed(script)[0]
    assert _run(script, "true | true", tmp_path) == _run(script, "true | false", tmp_path)


@pytest.mark.parametrize(
    "script",
    [
        "set -o pipefail\n@PIPE@\n",
        "set -eo pipefail\n@PIPE@\necho after\n",
        '@PIPE@\necho "${PIPESTATUS[0]}"\n',
        '@PIPE@\necho "${PIPESTATUS[*]}"\n',
        "set +o pipefail\nfor i in 1 2; do @PIPE@ || echo failed; set -o pipefail; done\n",
        "set -o pipefail\n( set +o pipefail )\n@PIPE@\n",
    ],
)
def test_a_first_stage_status_is_seen_through_pipefail_or_pipestatus(script, tmp_path):
    assert _observed(script)[1]
    assert _run(script, "true | true", tmp_path) != _run(script, "false | true", tmp_path)


@pytest.mark.parametrize(
    "script",
    [
        "@PIPE@\n",
        "set -e\n@PIPE@\necho after\n",
        "set -o pipefail\n@PIPE@\necho after\n",
        "set -o pipefail\nset +o pipefail\n@PIPE@\n",
        "( set -o pipefail )\n@PIPE@\n",
    ],
)
def test_a_first_stage_status_is_not_seen_otherwise(script, tmp_path):
    assert not _observed(script)[1]
    assert _run(script, "true | true", tmp_path) == _run(script, "false | true", tmp_path)


def _use(script: str) -> str:
    source = script.replace("@PIPE@", "true | true").encode()
    context = context_of(source)
    (statement,) = pipeline_roots(context.root)
    return exit_status.status_use(statement, context.facts)


TESTED_ONLY = [
    "if @PIPE@; then echo yes; fi\n",
    "while @PIPE@; do echo once; break; done\necho after\n",
    "@PIPE@ && echo yes\necho after\n",
    "@PIPE@ || echo no\necho after\n",
    "! @PIPE@\necho after\n",
    "set -e\nif @PIPE@; then echo yes; fi\necho after\n",
]
VALUE_READ = ["@PIPE@\n", "set -e\n@PIPE@\necho after\n", '@PIPE@\necho "rc=$?"\n', "f() { @PIPE@; }\nf\necho \"rc=$?\"\n"]


@pytest.mark.parametrize("script", TESTED_ONLY)
def test_only_zero_or_not_is_tested(script, tmp_path):
    """One non-zero status for another changes nothing where the status is only tested."""
    assert _use(script) == exit_status.TESTED
    assert _run(script, "true | (exit 1)", tmp_path) == _run(script, "true | (exit 2)", tmp_path)


@pytest.mark.parametrize("script", VALUE_READ)
def test_the_value_is_read(script, tmp_path):
    assert _use(script) == exit_status.VALUE
    assert _run(script, "true | (exit 1)", tmp_path) != _run(script, "true | (exit 2)", tmp_path)


def _listed_last(block, node) -> bool:
    """The last statement as the rule first read it: every child of the block listed."""
    found = []
    for index, child in enumerate(block.children):
        if not child.is_named or child.type in ("comment", "elif_clause", "else_clause"):
            continue
        if block.field_name_for_child(index) in ("condition", "value", "name"):
            continue
        found.append(child)
    return bool(found) and found[-1] == node


def _listed_condition(block, node) -> bool:
    if block.type not in ("if_statement", "elif_clause"):
        return False
    for child in block.children:
        if child.type == "then":
            return node.start_byte < child.start_byte
    return True


def test_the_last_statement_read_from_the_end_is_the_last_listed():
    """Read from the block's end (linear on a flat script) against listing every statement; and
    the condition, found with a cursor, against listing the block's children."""
    from tests.fuzz import grammar

    scripts = [case for case in OBSERVED + NOT_OBSERVED]
    scripts += ["\n".join(grammar.generate(2438, index, timing=False).lines) + "\n" for index in range(200)]
    scripts.append("if a; then b; c # x\nelif d; then e; else f; fi\ncase x in y) g;; # z\nesac\nwhile h; do i; done # t\n")
    scripts.append("if a\nb; then c; elif d; e; then f; g; elif h; then :; else i; j; fi\nif k; then l; fi # m\n")
    compared = 0
    for script in scripts:
        root = syntax.parse(script.encode()).root_node
        for block in syntax.walk(root):
            if block.type not in exit_status._SEQUENCES | {"program"}:
                continue
            for node in block.named_children:
                assert exit_status._is_last_statement(block, node) == _listed_last(block, node), (script, node)
                assert exit_status._is_condition(block, node) == _listed_condition(block, node), (script, node)
                compared += 1
    assert compared > 1000
