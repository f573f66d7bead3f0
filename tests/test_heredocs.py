"""Here-document bodies where bash ends them: checked against what real bash and dash feed the command."""

from __future__ import annotations

import subprocess

import pytest

from pipelint.shell import heredocs, syntax
from pipelint.shell.dialect import Dialect

# Each script feeds here-documents to `cat` only, then runs `echo CODE`: what
# the shell prints is the bodies, then CODE if it ran that line as code.
ENDS = {
    "tab before the delimiter under <<": "cat <<EOF\nbody\n\tEOF\necho CODE\nEOF\n",
    "a blank after it": "cat <<EOF\nbody\nEOF \necho CODE\nEOF\n",
    "spaces before it": "cat <<EOF\nbody\n  EOF\necho CODE\nEOF\n",
    "a semicolon after it": "cat <<EOF\nbody\nEOF;\necho CODE\nEOF\n",
    "a carriage return in an LF file": "cat <<EOF\nbody\nEOF\r\necho CODE\nEOF\n",
    "spaces under <<-": "cat <<-EOF\nbody\n  EOF\necho CODE\nEOF\n",
    "tabs under <<-": "cat <<-EOF\n\tbody\n\t\tEOF\necho CODE\n",
    "an empty delimiter": "cat <<''\nbody\n\necho CODE\n",
    "backslash-newline joins it to the line before": "cat <<EOF\nbody\\\nEOF\necho CODE\nEOF\n",
    "no joining under a quoted delimiter": "cat <<'EOF'\nbody\\\nEOF\necho CODE\n",
    "quotes in the middle of the word": 'cat <<E"O"F\nbody\nEOF\necho CODE\n',
    "a backslash before the word": "cat <<\\EOF\n$HOME\nEOF\necho CODE\n",
    "the word is not expanded": 'cat <<"$x"\nbody\n$x\necho CODE\n',
    "the delimiter starts with =": "cat <<=cut\n\n=head1 NAME\n\n=cut\necho CODE\n",
    "no delimiter line: the body runs to the end": "cat <<EOF\nbody\necho CODE\n",
    "two on one line, bodies in order": "cat <<A; cat <<-B\na\nA\n\tb\n\tB\necho CODE\n",
    "the operator's line goes on in quotes": 'cat <<EOF; : "x\ny" $(: ")\n")\nbody\nEOF\necho CODE\n',
    "a pipe after the operator": "cat <<EOF |\nbody\nEOF\ncat\necho CODE\n",
    "a shift is no operator": "cat <<EOF; : $((1<<2))\nbody\nEOF\necho CODE\n",
    "a body line starting with a backslash": "cat <<'EOF' | cat\n\\first\nEOF\necho CODE\n",
    "CRLF lines": "cat <<EOF\r\nbody\r\nEOF\r\necho CODE\r\n",
}


def printed(script: bytes, shell: str) -> bytes:
    return subprocess.run([shell, "-c", script], capture_output=True, timeout=10).stdout


def body_as_fed(source: bytes, document: heredocs.HereDocument) -> bytes:
    """The bytes the shell feeds: the body, less leading tabs under <<-, less backslash-newlines when unquoted."""
    lines = source[document.body_start : document.body_end].split(b"\n")
    if document.strip_tabs:
        lines = [line.lstrip(b"\t") for line in lines]
    body = b"\n".join(lines)
    return body if document.quoted else body.replace(b"\\\n", b"")


@pytest.mark.parametrize("shell", ["bash", "dash"])
@pytest.mark.parametrize("script", ENDS.values(), ids=ENDS.keys())
def test_bodies_end_where_the_shell_ends_them(script, shell):
    source = script.encode()
    documents = heredocs.find(source, syntax.parse(source).root_node, Dialect.BASH)
    assert documents, "the operator was found"
    bodies = b"".join(body_as_fed(source, document) for document in documents)
    code = b"CODE\r\n" if b"\r\n" in source else b"CODE\n"
    runs_code = b"echo CODE" in source[documents.documents[-1].end :]
    assert printed(source, shell) == bodies + (code if runs_code else b"")


def test_dollar_quotes_are_quoting_in_bash_not_in_dash():
    source = b"cat <<$'EOF'\nbody\nEOF\necho CODE\n$'EOF'\n"
    root = syntax.parse(source).root_node
    (bash_reads,) = heredocs.find(source, root, Dialect.BASH)
    (dash_reads,) = heredocs.find(source, root, Dialect.SH)
    assert (bash_reads.delimiter, dash_reads.delimiter) == (b"EOF", b"$EOF")
    assert printed(source, "bash") == b"body\nCODE\n"  # bash ended at `EOF`
    assert b"echo CODE" in printed(source, "dash")  # dash never found `$EOF`
    assert not dash_reads.terminated


def test_inside_body_covers_the_body_and_its_delimiter_line_only():
    source = b"cat > job.sh <<EOF\nbody\n\tEOF\ncat f | sort\nEOF\necho after\n"
    root = syntax.parse(source).root_node
    body = source.index(b"body")
    last = source.index(b"\nEOF\n") + 1
    after = source.index(b"echo after")
    inside = [body, source.index(b"\tEOF"), source.index(b"cat f"), last, last + 3]
    outside = [0, body - 1, after]
    assert all(heredocs.inside_body(source, root, offset) for offset in inside)
    assert not any(heredocs.inside_body(source, root, offset) for offset in outside)


def test_a_script_without_operators_has_no_bodies():
    source = b"echo '<<EOF'\nx=\"<<A\"\n"
    assert len(heredocs.find(source, syntax.parse(source).root_node)) == 0


def test_a_here_string_with_a_descriptor_starts_no_here_document():
    """`3<<<"$PW"` is bash's here-string on descriptor 3: the rest of the file stays code (issue 26)."""
    source = b'b() { :; }\nb 3<<<"$PW"\ncat <<EOF\nbody\nEOF\necho CODE\n'
    documents = heredocs.find(source, syntax.parse(source).root_node, Dialect.BASH)
    assert [source[d.body_start : d.body_end] for d in documents] == [b"body\n"]
    assert printed(source, "bash") == b"body\nCODE\n"
