"""Fixes around here-documents bash ends elsewhere than tree-sitter (issue 13 classes 1 and 11), run by real bash and dash."""

from __future__ import annotations

import pytest
from harness import assert_same_behaviour, codes, fix

# Delimiter lines bash does not accept, so the body goes on (tree-sitter ends it there).
NOT_THE_END = [
    "cat > job.sh <<EOF\nhello\n\tEOF\ncat words.txt | sort\nEOF\ncat job.sh\n",
    "cat > job.sh <<EOF\nhello\nEOF \ncat words.txt | sort\nEOF\ncat job.sh\n",
    "cat > job.sh <<-EOF\nhello\n  EOF\ncat words.txt | sort\nEOF\ncat job.sh\n",
    "cat > job.sh <<EOF\nhello\nEOF;\ncat words.txt | sort\nEOF\ncat job.sh\n",
    "cat > job.sh <<EOF\nhello\\\nEOF\ncat words.txt | sort\nEOF\ncat job.sh\n",
]
# A pipe that continues after the body (class 1).
PIPE_AFTER_THE_BODY = [
    "cat <<EOF |\nhello\nEOF\ntr a-z A-Z\necho after\n",
    "cat <<-EOF |\n\thello\n\n\tEOF\ntr a-z A-Z\necho after\n",
    "cat <<EOF |\nEOF\ntr a-z A-Z\necho after\n",
    "cat <<'EOF' |\na | b\nEOF\ntr a-z A-Z\necho after\n",
    "x=$(cat <<EOF |\nhello\nEOF\ntr a-z A-Z\n)\necho \"$x\"\n",
    "for i in 1 2; do cat <<\"EOF\" | wc -l; echo \"i=$i\"; done\na | b\ncat words.txt |\nEOF\necho end\n",
]


@pytest.mark.parametrize("script", NOT_THE_END)
def test_nothing_is_reported_or_fixed_inside_a_body(script, tmp_path):
    assert "PL001" not in codes(script)
    fixed = fix(script, unsafe=True)
    assert_same_behaviour(script.encode(), fixed, tmp_path, "bash")


@pytest.mark.parametrize("script", PIPE_AFTER_THE_BODY)
@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_a_pipe_continued_after_the_body_keeps_behaviour(script, shell, tmp_path):
    source = script.encode() if shell == "bash" else b"#!/bin/sh\n" + script.encode()
    path = "script.bash" if shell == "bash" else "script.sh"
    fixed = fix(source, path, unsafe=True)
    assert_same_behaviour(source, fixed, tmp_path, shell, path=path)
