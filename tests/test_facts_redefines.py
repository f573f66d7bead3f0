"""Context.redefines: command names a script may not run as the program of that name."""

from __future__ import annotations

import pytest
from harness import context_of

from pipelint.rule import Context


def context_for(script: str) -> Context:
    source = script.encode()
    return context_of(source)


@pytest.mark.parametrize(
    "script",
    [
        'cat() { command cat -n "$@"; }\ncat f | wc -l\n',
        'cat f | wc -l\ncat() { command cat -n "$@"; }\n',  # defined after the use: still the function at run time
        'function cat { command cat -n "$@"; }\ncat f | wc -l\n',
        "alias cat='cat -n'\ncat f | wc -l\n",
        "shopt -s expand_aliases\nalias cat=\"cat -n\"\ncat f | wc -l\n",
        ". ./lib.sh\ncat f | wc -l\n",
        "source \"$HOME/.bashrc\"\ncat f | wc -l\n",
    ],
)
def test_redefined(script):
    assert context_for(script).redefines(b"cat")


@pytest.mark.parametrize(
    "script",
    [
        "cat f | wc -l\n",
        "dog() { :; }\nalias ll='ls -l'\ncat f | wc -l\n",
        "echo source\ncat f | wc -l\n",
    ],
)
def test_not_redefined(script):
    assert not context_for(script).redefines(b"cat")
