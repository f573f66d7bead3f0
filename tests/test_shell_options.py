"""shell_options: where `set -e`, `set -o pipefail` and `set -u` may be in force.

The index that answers a question in a few binary searches (linear on a
script with a `set -e` / `set +e` pair per pipeline) is checked against the
plain rule it replaced: ask every command that turns the option on, and every
`set +…`, for every question. Both see the same commands, read by the same
ShellOptions; only the answering differs.
"""

from __future__ import annotations

import random

import pytest
from harness import context_of

from pipelint.shell import syntax
from pipelint.facts.shell_options import ANY, ShellOptions
from tests.fuzz import grammar

NAMES = ("errexit", "pipefail", "nounset")

HANDWRITTEN = [
    "set -e\ncat a | sort\nset +e\ncat a | sort\n",
    "set -e\nwhile x; do cat a | sort; set +e; cat b | sort; set -e; done\ncat c | sort\n",
    "set -e\nif c; then set +e; cat a | sort; elif d; then set +e; cat b | sort; else cat c | sort; fi\ncat d | sort\n",
    "set -e\nset +e\nf() { cat a | sort; }\nf\ng() { set -e; }\ncat b | sort\ng\ncat c | sort\n",
    "set -e\nset +e\nx=$(set -e; cat a | sort)\n( set -e; cat b | sort )\ncat c | sort\n",
    "set -o pipefail\nfor i in 1 2; do set +o pipefail; cat a | sort; for j in 1; do cat b | sort; set -o pipefail; done; done\n",
    "trap 'echo e' ERR\nset +e\ncat a | sort\n",
    "set -e\n. ./lib.sh\nset +e\ncat a | sort\n",
    "case $x in a) set -e; set +e; cat a | sort;; b) cat b | sort;; esac\ncat c | sort\n",
    "set -e\n{ set +e; cat a | sort; }\ncat b | sort\nset +e && cat c | sort\n",
]


def options_of(source: bytes) -> tuple[ShellOptions, list[int]]:
    root = syntax.parse(source).root_node
    context = context_of(source)
    statements = [node.start_byte for node in syntax.walk(root) if node.type in ("command", "pipeline")]
    return context.facts._shell_options, statements


def asked_of_every_command(options: ShellOptions, name: str, offset: int) -> bool:
    """The rule as written before the index: every turn-on and every `set +…`, scanned."""
    in_function = options._in_function(offset)
    may_be_on = [
        turn_on
        for turn_on in options._turn_ons.get(name, []) + options._turn_ons.get(ANY, [])
        if in_function or (turn_on.first_run <= offset and (turn_on.shell is None or turn_on.shell[0] <= offset < turn_on.shell[1]))
    ]
    if not may_be_on:
        return False
    if any(not turn_on.undone_by_off for turn_on in may_be_on) or options._runs_other_code:
        return True
    loops = options._loop_nest._spans
    for off in options._turn_offs.get(name, []):
        if not off.end <= offset < off.reach:
            continue
        if any(off.end <= start <= offset < end for start, end in options._functions):
            continue
        until = max([end for start, end in loops if off.end <= start <= offset < end], default=offset)
        if any(off.end <= turn_on.at < until for turn_on in may_be_on):
            continue
        if name in options._set_in_functions or ANY in options._set_in_functions:
            if any(off.end <= call < until for call in options._calls):
                continue
        return False
    return True


def generated(count: int) -> list[str]:
    scripts = []
    for index in range(count):
        case = grammar.generate(2438, index, timing=False)
        scripts.append("\n".join(case.lines) + "\n")
    return scripts


@pytest.mark.parametrize("script", HANDWRITTEN + generated(300))
def test_the_index_answers_as_the_plain_rule(script):
    options, statements = options_of(script.encode())
    rng = random.Random(script)
    offsets = statements + [rng.randrange(len(script) + 1) for _ in range(20)]
    for offset in offsets:
        for name in NAMES:
            assert options.in_force(name, offset) == asked_of_every_command(options, name, offset), (name, offset)
