"""Deep nesting and large scripts finish: hang guards with generous timeouts, not speed assertions.

The measured curves are in tests/benchmarks/bench_file_size.py (sizes and
nesting depths, against the bare parse); issue 14 had 50k nested `$(`
running over 120 s and a 10 MB script 68 s.
"""

from __future__ import annotations

from cli_helpers import run_cli
from tree_sitter import Query

from pipelint.shell import syntax

GUARD = 240  # seconds: minutes more than any of these takes on a loaded 2-core machine


def nested(depth: int, inner: str = "echo ") -> str:
    return "echo " + f"$({inner}" * depth + "x" + ")" * depth + "\n"


def test_fifty_thousand_nested_substitutions(tmp_path):
    script = tmp_path / "deep.sh"
    script.write_text(nested(50_000))
    result = run_cli("check", "--no-cache", "--output-format", "concise", str(script), timeout=GUARD)
    assert result.returncode == 0, result.stderr


def test_nested_pipelines_are_each_found(tmp_path):
    script = tmp_path / "deep.sh"
    script.write_text(nested(3_000, "cat f | rev "))
    result = run_cli("check", "--no-cache", "--output-format", "concise", "--select", "PL001", str(script), timeout=GUARD)
    assert result.returncode == 1, result.stderr
    assert result.stdout.count(b" PL001 ") == 3_000


def test_captures_deeper_than_the_query_cursor_counts(tmp_path):
    """tree-sitter's cursor counts depth in 16 bits: below 65,535 levels it lost captures."""
    depth = 40_000  # two tree levels each: 80,000 levels deep
    root = syntax.parse(nested(depth).encode()).root_node
    commands = syntax.captures(Query(syntax.language(), "(command) @command"), root)["command"]
    assert len(commands) == depth + 1
    assert [node.start_byte for node in commands] == sorted(node.start_byte for node in commands)


def test_a_pipeline_of_thousands_of_redirected_stages(tmp_path):
    """`a 2>e | b 2>e | …` nests one level per stage in tree-sitter: flattened without recursion."""
    script = tmp_path / "long.sh"
    script.write_text("cat f 2>/dev/null | " + "rev 2>/dev/null | " * 5_000 + "wc -l\n")
    result = run_cli("check", "--no-cache", "--output-format", "concise", str(script), timeout=GUARD)
    assert b"internal error" not in result.stderr
    assert result.returncode in (0, 1)


def test_a_megabyte_of_findings(tmp_path):
    script = tmp_path / "dense.sh"
    lines = b'cat "data.txt" | grep -v foo | uniq > out.txt\nif [ -f x ]; then echo "hi" | tr a b; fi\n'
    script.write_bytes(lines * (1_000_000 // len(lines)))
    result = run_cli("check", "--no-cache", "--output-format", "concise", str(script), timeout=GUARD)
    assert result.returncode == 1, result.stderr
    assert result.stdout.count(b"\n") >= 1_000_000 // len(lines)


def test_a_set_e_and_set_plus_e_around_each_of_4000_pipelines(tmp_path):
    """Each pipeline asked whether errexit is on, and each question scanned every `set -e` for every
    `set +e` before it: over 300 s (shell_options.py answers with binary searches now)."""
    script = tmp_path / "toggles.sh"
    script.write_text("set -e\ncat a | uniq\nset +e\n" * 4000)
    result = run_cli("check", "--no-cache", "--output-format", "concise", str(script), timeout=GUARD)
    assert result.returncode == 1, result.stderr
    assert result.stdout.count(b" PL001 ") == 4000


def test_12000_assignments_each_read_by_a_pipeline(tmp_path):
    """Whether each pipeline's status is handed on listed every top-level statement, with a field
    look-up each (py-tree-sitter walks the block per look-up): 8,000 pairs took over 100 s."""
    script = tmp_path / "assign.sh"
    script.write_text("".join(f"v{i}=file{i}.txt\ncat $v{i} | wc -l\n" for i in range(12_000)))
    result = run_cli("check", "--no-cache", "--output-format", "concise", str(script), timeout=GUARD)
    assert result.returncode == 1, result.stderr
    assert result.stdout.count(b" PL001 ") == 12_000
