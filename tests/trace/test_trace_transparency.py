"""A traced script runs as it runs untraced: the same stdout, stderr and exit status, byte for byte, in bash and dash.

Each script here prints what it could tell about how it was started (its
arguments, stdin, environment, open descriptors, shell flags, signal
dispositions and mask, umask, limits) and ends with a status of its own;
the untraced run is the same command under `sh -c`, as a shell reports it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from trace_helpers import trace, untraced, write_script

SHELLS = ["bash", "dash"]

# What a script can see of how it was started, without its pids and the pipes' inode numbers.
INTROSPECTION = r"""
printf 'arg: <%s>\n' "$0" "$@"
echo "flags: $-"
echo "stdin: $(cat)"
env | LC_ALL=C sort
ls /proc/self/fd | LC_ALL=C sort -n | tr '\n' ' '; echo
grep -E '^Sig(Ign|Blk|Cgt):' /proc/self/status
grep -E '^(Uid|Gid|Groups|NoNewPrivs|Seccomp|CapEff):' /proc/self/status
umask
ulimit -n
echo "to stderr" >&2
printf 'no newline at the end' >&2
"""


def same_run(command: list[str], cwd: Path, stdin: bytes = b"", env: dict | None = None):
    traced = trace(command, cwd, stdin=stdin, env=env)
    plain = untraced(command, cwd, stdin=stdin, env=env)
    assert traced.completed.stdout == plain.stdout
    assert traced.completed.stderr == plain.stderr
    assert traced.status == plain.returncode
    return traced, plain


@pytest.mark.parametrize("shell", SHELLS)
def test_what_the_script_sees_is_the_same(tmp_path: Path, shell: str):
    write_script(tmp_path, "see.sh", INTROSPECTION + "exit 3\n")
    traced, plain = same_run([shell, "see.sh", "a b", "", "*"], tmp_path, stdin=b"from stdin\x00\xff\n", env={"X_TEST": "1"})
    assert plain.returncode == 3 and b"X_TEST=1" in plain.stdout and b"arg: <a b>" in plain.stdout
    assert traced.report["exit_status"] == 3


@pytest.mark.parametrize("shell", SHELLS)
def test_a_script_run_by_its_shebang_sees_the_same(tmp_path: Path, shell: str):
    write_script(tmp_path, "see", f"#!/usr/bin/env {shell}\n" + INTROSPECTION)
    same_run(["./see", "x"], tmp_path, stdin=b"in")


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(
    "ending",
    ["exit 0", "exit 1", "exit 255", "false", "kill -TERM $$", "kill -KILL $$", "kill -INT $$", "cat /nonexistent"],
)
def test_the_exit_status_is_the_script_s(tmp_path: Path, shell: str, ending: str):
    write_script(tmp_path, "end.sh", f"echo start\nyes | head -n 3\n{ending}\n")
    traced, plain = same_run([shell, "end.sh"], tmp_path)
    assert traced.report["exit_status"] == plain.returncode
    killed_by = {"kill -TERM $$": 15, "kill -KILL $$": 9, "kill -INT $$": 2}.get(ending)
    if killed_by is not None and plain.returncode != 128 + killed_by:
        killed_by = None  # a signal ignored where the suite runs (SIGINT, in a background job) is ignored by both
    assert traced.report["signal"] == killed_by


@pytest.mark.parametrize("shell", SHELLS)
def test_pipelines_signals_and_background_jobs_behave_the_same(tmp_path: Path, shell: str):
    script = (
        "trap 'echo trapped USR1' USR1\n"
        "kill -USR1 $$\n"
        "yes | head -c 100000 | wc -c\n"  # yes dies of SIGPIPE, as untraced
        "( echo sub; exit 4 ); echo \"sub status $?\"\n"
        "sleep 0 & wait $!; echo \"background status $?\"\n"
        "x=$(printf '%s' abc | tr a-z A-Z); echo \"$x\"\n"
        "sh -c 'echo inner >&2; exit 7'; echo \"inner status $?\"\n"
        "exec 3>&1; echo to three >&3\n"
    )
    write_script(tmp_path, "mix.sh", script)
    same_run([shell, "mix.sh"], tmp_path)


def test_bash_x_traces_to_stderr_as_without_pipelint(tmp_path: Path):
    # One process writes at a time: the stages of `echo | cat` trace themselves in either order, with or without.
    write_script(tmp_path, "x.sh", "a=1\necho \"$a\" > out.txt\ncat out.txt\n")
    same_run(["bash", "-x", "x.sh"], tmp_path)
