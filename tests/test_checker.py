"""The checker's handling of scripts that only partly parse."""

from __future__ import annotations

from harness import lint


def test_statements_around_a_parse_error_are_still_linted():
    script = "cat a | grep x\nif true; then\n  echo (\nfi\ncat b | grep y\n"
    findings = lint(script)
    assert [(f.code, script.encode()[f.start : f.end]) for f in findings] == [
        ("PL001", b"cat a"),
        ("PL001", b"cat b"),
    ]
    # Before the broken statement the fix is offered; after it, not.
    assert findings[0].fix is not None and findings[1].fix is None


def test_no_finding_joins_pieces_across_the_blanked_error():
    # Blanking `$(( cat f` used to leave a phantom `echo .txt | sort`.
    for script in ["echo $(( cat f | sort\n", "x=$( cat f.txt | sort\n", "echo $(( cat f.txt | sort\necho \"$x\" | tr a b\n"]:
        source = script.encode()
        for finding in lint(script, select=("PL001", "PL503", "PL502", "PL501")):
            assert source[finding.start : finding.end] in source, finding
            assert b"$(" not in source[finding.start : finding.end]
