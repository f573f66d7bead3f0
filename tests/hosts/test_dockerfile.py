"""Dockerfiles: RUN's shell linted at the right line and column, fixes proven by running the RUN and by BuildKit's parser."""

from __future__ import annotations

import dockerfile as buildkit
import pytest
from harness import assert_same_behaviour
from host_helpers import check, fixed, located

from pipelint.embedded import hosts
from pipelint.shell.dialect import Dialect
from pipelint.finding import Edit
from pipelint.embedded.hosts.dockerfile import scan


def instructions_apart_from_run(text: bytes) -> list[tuple]:
    """What BuildKit reads, with the RUN text left out: a fix may change that only."""
    return [
        (
            c.cmd,
            c.sub_cmd,
            c.json,
            c.flags,
            tuple(h.name for h in c.heredocs),
            None if c.cmd.upper() == "RUN" else c.value,
        )
        for c in buildkit.parse_string(text.decode())
    ]


def assert_fix_keeps_the_build(original: str, result: bytes, tmp_path, shell: str = "dash") -> None:
    """Same instructions for BuildKit; every RUN script behaves the same when run, its inputs there.

    With an input taken away, behaviour may differ as each rule's document says; the rules' own tests prove that.
    """
    assert instructions_apart_from_run(result) == instructions_apart_from_run(original.encode())
    before, after = scan(original.encode()).regions, scan(result).regions
    assert len(before) == len(after)
    for number, (old, new) in enumerate(zip(before, after)):
        if old.text != new.text:
            assert_same_behaviour(old.text, new.text, tmp_path / str(number), shell, inputs=())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("FROM debian:12\nRUN cat access.log | grep 500\n", [("PL001", 2, 5)]),
        # flags before the command, a continuation, a comment line Docker drops, a blank line
        (
            (
                "FROM debian:12\nRUN --mount=type=cache,target=/var/cache/apt \\\n    --network=none \\\n"
                "    apt-get update && \\\n    # fetch the list\n\n    cat access.log | grep 500\n"
            ),
            [("PL001", 7, 5)],
        ),
        # here-document alone: the body is the script
        ("FROM debian:12\nRUN <<EOF\nset -e\ncat access.log | grep 500\nEOF\n", [("PL001", 4, 1)]),
        # here-document given to a shell
        ("FROM debian:12\nRUN <<EOF bash\ncat access.log | grep 500\nEOF\n", [("PL001", 3, 1)]),
        # exec form running a shell
        ('FROM debian:12\nRUN ["sh", "-c", "cat access.log | grep 500"]\n', [("PL001", 2, 19)]),
        # columns count characters: two 2-byte characters before the finding
        ('FROM debian:12\nRUN echo "éé" && cat access.log | grep 500\n', [("PL001", 2, 18)]),
        # the escape directive
        ("# escape=`\nFROM debian:12\nRUN echo a && `\n  cat access.log | grep 500\n", [("PL001", 4, 3)]),
        # lowercase keyword, ONBUILD
        ("FROM debian:12\nonbuild run cat access.log | grep 500\n", [("PL001", 2, 13)]),
    ],
)
def test_finding_points_into_the_run(text, expected):
    assert located(check("Dockerfile", text)) == expected


def test_not_shell_is_not_linted():
    text = (
        "FROM debian:12\nRUN python3 <<PY\nprint('cat f | grep x')\nPY\n"
        'RUN ["python3", "-c", "cat f | grep x"]\n'
        "RUN <<EOF\n#!/usr/bin/env python3\ncat = 1\nEOF\n"
        'SHELL ["pwsh", "-Command"]\nRUN cat access.log | grep 500\n'
        "COPY <<EOF /etc/x\ncat access.log | grep 500\nEOF\n"
    )
    report = check("Dockerfile", text)
    assert report.findings == [] and report.parse_failures == []


def test_shell_sets_the_dialect_and_options_per_stage():
    text = (
        'FROM debian:12 AS base\nSHELL ["/bin/bash", "-eo", "pipefail", "-c"]\nRUN echo a\n'
        "FROM base AS child\nRUN echo b\n"
        "FROM debian:12\nRUN echo c\n"
    )
    regions = scan(text.encode()).regions
    assert [(r.dialect, "errexit" in r.options, "pipefail" in r.options) for r in regions] == [
        (Dialect.BASH, True, True),
        (Dialect.BASH, True, True),  # a stage built on `base` keeps its shell
        (Dialect.SH, False, False),  # any other image starts at /bin/sh -c
    ]


def test_bash_only_fixes_only_under_a_bash_shell():
    sh = 'FROM debian:12\nRUN echo "$x" | grep -c y\n'
    bash = 'FROM debian:12\nSHELL ["/bin/bash", "-c"]\nRUN echo "$x" | grep -c y\n'
    assert check("Dockerfile", sh, select=("PL503",)).findings == []
    (finding,) = check("Dockerfile", bash, select=("PL503",), unsafe_fixes=True).findings
    assert b"<<<" in finding.fix.edits[-1].content
    assert fixed("Dockerfile", bash, select=("PL503",), unsafe_fixes=True).endswith(b'RUN grep -c y <<< "$x"\n')


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("FROM debian:12\nRUN cat access.log | grep 500; echo done\n", "FROM debian:12\nRUN grep 500 < access.log; echo done\n"),
        (
            "FROM debian:12\nRUN --mount=type=tmpfs,target=/tmp echo start && \\\n    cat words.txt | uniq -u; echo done\n",
            "FROM debian:12\nRUN --mount=type=tmpfs,target=/tmp echo start && \\\n    uniq -u < words.txt; echo done\n",
        ),
        (
            "FROM debian:12\nRUN <<EOF\ncat access.log | grep -c 500\necho counted\nEOF\nRUN echo done\n",
            "FROM debian:12\nRUN <<EOF\ngrep -c 500 < access.log\necho counted\nEOF\nRUN echo done\n",
        ),
        (
            'FROM debian:12\nRUN ["sh", "-c", "cat access.log | wc -l; echo done"]\n',
            'FROM debian:12\nRUN ["sh", "-c", "wc -l < access.log; echo done"]\n',
        ),
        (
            "# escape=`\nFROM debian:12\nRUN echo start && `\n  cat data.csv | uniq`\n  | uniq\n",
            "# escape=`\nFROM debian:12\nRUN echo start && `\n  uniq < data.csv`\n  | uniq\n",
        ),
    ],
)
def test_fix_keeps_the_dockerfile_and_what_run_does(text, expected, tmp_path):
    result = fixed("Dockerfile", text)
    assert result.decode() == expected
    assert_fix_keeps_the_build(text, result, tmp_path)


def test_an_edit_across_a_continuation_stays_a_finding_with_the_rewrite():
    text = "FROM debian:12\nRUN cat access.log | \\\n    grep 500\n"
    (finding,) = check("Dockerfile", text).findings
    assert finding.fix is None
    assert "grep 500 < access.log" in finding.message
    assert fixed("Dockerfile", text) == text.encode()


def test_a_comment_inside_a_continuation_swallows_the_rest_as_sh_c_does():
    # BuildKit joins the lines: `echo a # note && cat access.log | grep 500` is one comment after `echo a`.
    text = "FROM debian:12\nRUN echo a # note \\\n && cat access.log | grep 500\n"
    report = check("Dockerfile", text)
    assert report.findings == [] and report.parse_failures == []


def test_the_fixer_refuses_an_edit_that_changes_the_instructions():
    text = b"FROM debian:12\nRUN echo a && \\\n    cat access.log | grep 500\n"
    escape = text.index(b"\\\n")
    for edit in (Edit(escape, escape + 1, b""), Edit(0, 4, b"from"), Edit.insert(len(text), b"RUN x\n")):
        after = text[: edit.start] + edit.content + text[edit.end :]
        assert not hosts.keeps_host(hosts.DOCKERFILE, text, [edit], after)
    good = Edit(text.index(b"grep"), text.index(b"grep") + 4, b"egrep")
    assert hosts.keeps_host(hosts.DOCKERFILE, text, [good], text.replace(b"grep", b"egrep"))


def test_directive_above_the_run_disables_the_rule():
    text = "FROM debian:12\n# pipelint: disable=PL001 the log is tiny\nRUN cat access.log | grep 500\nRUN cat words.txt | uniq\n"
    assert located(check("Dockerfile", text)) == [("PL001", 4, 5)]


def test_directive_inside_a_continuation_covers_the_rest_of_the_run():
    """BuildKit drops the comment line, so the shell never sees it; pipelint reads it as a line of its own."""
    text = (
        "FROM debian:12\nRUN cat a.log | grep 1 && \\\n"
        "    # pipelint: disable=PL001\n    cat b.log | grep 2\nRUN cat c.log | grep 3\n"
    )
    assert located(check("Dockerfile", text)) == [("PL001", 2, 5), ("PL001", 5, 5)]


def test_directive_at_the_end_of_a_run_line_covers_that_line_only():
    text = "FROM debian:12\nRUN cat a.log | grep 1  # pipelint: disable=PL001\nRUN cat b.log | grep 2\n"
    assert located(check("Dockerfile", text)) == [("PL001", 3, 5)]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "# nothing but a comment\n",
        "FROM debian:12\nRUN <<EOF\nnever ends\n",
        "FROM debian:12\nRUN\n",
        b"FROM debian:12\nRUN echo \xff | cat access.log | grep x\n",
        'FROM debian:12\nRUN ["sh", "-c", "cat \\"my file.txt\\" | wc -l"]\n',
    ],
)
def test_odd_dockerfiles_do_not_crash(text):
    report = check("Dockerfile", text)
    assert report.crashes == []
    assert all(finding.fix is None for finding in report.findings if b'\\"' in report.source)


def test_unterminated_heredoc_is_a_parse_failure():
    report = check("Dockerfile", "FROM debian:12\nRUN <<EOF\nnever ends\n")
    assert len(report.parse_failures) == 1


def test_names_of_dockerfiles():
    for name in ("Dockerfile", "Containerfile", "web.Dockerfile", "Dockerfile.prod", "ci/x.dockerfile"):
        assert hosts.kind_of(name) is hosts.DOCKERFILE, name
    for name in ("Dockerfile.sh", "Dockerfile.dockerignore", "dockerfile.txt", "Makefile"):
        assert hosts.kind_of(name) is not hosts.DOCKERFILE, name
