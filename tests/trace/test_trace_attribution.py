"""Each process goes to the line that started it: nested scripts, functions in loops, background jobs, `$(…)`.

bash tells the line at each fork; dash does not, and its processes are
matched by their words, their pipes and the order the shell runs the
script in. Both must land on the same lines.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from trace_helpers import data_file, trace, write_script

SHELLS = ["bash", "dash"]

MAIN = """\
count() {
  grep -c 0 "$1" | cat
}
for name in a b c; do
  count data.txt
done
lines=$(wc -l < data.txt)
echo "$lines lines"
sort data.txt > sorted.txt &
sh ./inner.sh
./inner2.sh first
wait
cat data.txt | tr 0 1 | wc -c
"""
INNER = """\
echo inner
tr a b < data.txt | head -n 1
"""
INNER2 = """\
#!/bin/sh
tail -n 1 data.txt | cut -c1-3 >&2
"""


@pytest.fixture
def traced_main(tmp_path: Path, request):
    shell = request.param
    data_file(tmp_path / "data.txt", 100_000)
    write_script(tmp_path, "main.sh", MAIN)
    write_script(tmp_path, "inner.sh", INNER)
    write_script(tmp_path, "inner2.sh", INNER2)
    traced = trace([shell, "main.sh"], tmp_path)
    assert traced.status == 0, traced.completed.stderr
    return traced


@pytest.mark.parametrize("traced_main", SHELLS, indirect=True)
def test_a_function_called_in_a_loop_is_one_line_with_a_count(traced_main):
    body = traced_main.at("main.sh", 2)
    assert body["text"] == 'grep -c 0 "$1" | cat'
    assert body["runs"] == 3
    assert [stage["processes"] for stage in body["stages"]] == [3, 3]
    assert body["measured"]["cpu_s"] == pytest.approx(sum(stage["cpu_s"] for stage in body["stages"]), abs=2e-6)
    assert body["stages"][0]["bytes_read"] >= 3 * 100_000  # each call read the file
    assert 5 not in traced_main.lines("main.sh")  # the call starts no process of its own


@pytest.mark.parametrize("traced_main", SHELLS, indirect=True)
def test_a_command_substitution_is_its_own_line(traced_main):
    wc = traced_main.at("main.sh", 7)
    assert wc["text"] == "wc -l < data.txt" and wc["runs"] == 1
    assert wc["stages"][0]["bytes_read"] >= 100_000


@pytest.mark.parametrize("traced_main", SHELLS, indirect=True)
def test_a_background_job_is_its_line(traced_main):
    sort = traced_main.at("main.sh", 9)
    assert sort["text"] == "sort data.txt > sorted.txt" and sort["runs"] == 1
    assert sort["stages"][0]["bytes_written"] >= 100_000


@pytest.mark.parametrize("traced_main", SHELLS, indirect=True)
def test_a_nested_script_is_attributed_to_its_own_lines(traced_main):
    assert traced_main.at("main.sh", 10)["text"] == "sh ./inner.sh"  # the inner shell's own work
    inner = traced_main.at("inner.sh", 2)
    assert inner["text"] == "tr a b < data.txt | head -n 1"
    assert [stage["program"] for stage in inner["stages"]] == ["tr", "head"]
    by_shebang = traced_main.at("inner2.sh", 2)  # run as ./inner2.sh: the kernel ran /bin/sh on it
    assert by_shebang["text"] == "tail -n 1 data.txt | cut -c1-3 >&2"
    assert traced_main.at("main.sh", 11)["text"] == "./inner2.sh first"
    files = [script["filename"] for script in traced_main.report["scripts"]]
    assert files == ["main.sh", "inner.sh", "inner2.sh"]


@pytest.mark.parametrize("traced_main", SHELLS, indirect=True)
def test_every_process_has_a_line(traced_main):
    last = traced_main.at("main.sh", 13)
    assert [stage["processes"] for stage in last["stages"]] == [1, 1, 1]
    assert traced_main.report["unattributed"]["processes"] == 0
    # Besides the lines' processes only the script's own shell, and bash's subshell for `$(wc -l < data.txt)`
    # (a redirect keeps bash from exec'ing wc in it; dash does), whose work is the shell's.
    ran = sum(stage["processes"] + stage["started"] for p in traced_main.pipelines() for stage in p["stages"])
    shells = {"bash": 2, "dash": 1}[traced_main.report["command"][0]]
    assert ran + shells == traced_main.report["measured"]["processes"]


@pytest.mark.parametrize("shell", SHELLS)
def test_a_while_loop_stage_is_its_pipeline_s(tmp_path: Path, shell: str):
    data_file(tmp_path / "data.txt", 20_000)
    write_script(tmp_path, "loop.sh", 'cat data.txt | while read -r line; do n=$((n + 1)); done\necho end\n')
    traced = trace([shell, "loop.sh"], tmp_path)
    pipeline = traced.at("loop.sh", 1)
    cat, loop = pipeline["stages"]
    assert (cat["processes"], loop["processes"]) == (1, 1)  # the loop's subshell is the second stage
    assert loop["bytes_read"] >= 20_000


def test_the_same_words_on_two_lines_are_told_apart_by_order_in_dash(tmp_path: Path):
    data_file(tmp_path / "data.txt", 1000)
    script = 'f() {\n  cat "$1" | wc -l\n}\nfor i in 1 2; do\n  f data.txt\ndone\ncat data.txt | wc -l\ncat data.txt | wc -l\n'
    write_script(tmp_path, "same.sh", script)
    traced = trace(["dash", "same.sh"], tmp_path)
    assert traced.at("same.sh", 2)["runs"] == 2
    assert traced.at("same.sh", 7)["runs"] == 1
    assert traced.at("same.sh", 8)["runs"] == 1
