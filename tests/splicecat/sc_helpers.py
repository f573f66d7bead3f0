"""Helpers shared by the splicecat tests: the runner, digests, GNU references."""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

MiB = 1 << 20
BIG_SIZE = 64 * MiB
# SMALL_INPUT_MAX in runtime/splicecat.c: regular files up to this size are
# not spliced through a pipe of splicecat's own (docs/splicecat.md, "Small
# inputs").
SMALL_INPUT_MAX = 8 * 1024

# The documented --stats format: one line per method used, at exit.
STATS_LINE = re.compile(r"^splicecat: stats: (copy_file_range|sendfile|splice|tee|readwrite) (\d+) bytes$")
SANITIZER_REPORT = re.compile(r"AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:")



@dataclass
class Result:
    returncode: int
    stdout: bytes | None
    stderr: str
    stats: dict[str, int] = field(default_factory=dict)
    # stderr without the --stats lines: the error messages.
    errors: str = ""


def parse_stderr(stderr: str) -> tuple[dict[str, int], str]:
    stats, other = {}, []
    for line in stderr.splitlines(keepends=True):
        m = STATS_LINE.match(line.rstrip("\n"))
        if m:
            assert m.group(1) not in stats, f"method reported twice: {stderr}"
            stats[m.group(1)] = int(m.group(2))
        else:
            other.append(line)
    return stats, "".join(other)


class Splicecat:
    """A splicecat binary and the environment to run it in."""

    def __init__(self, path: Path, kind: str):
        self.path = str(path)
        self.kind = kind
        self.env = dict(os.environ)
        if kind == "asan":
            self.env["ASAN_OPTIONS"] = "detect_leaks=1:abort_on_error=0"
            self.env["UBSAN_OPTIONS"] = "halt_on_error=1:print_stacktrace=1"

    def env_for(self, under_ptrace: bool) -> dict[str, str]:
        env = dict(self.env)
        if under_ptrace and self.kind == "asan":
            # LeakSanitizer stops the world with ptrace, which strace holds.
            env["ASAN_OPTIONS"] = "detect_leaks=0:abort_on_error=0"
        return env

    def argv(self, *args, wrapper=()) -> list[str]:
        return [*wrapper, self.path, *map(str, args)]

    def check_stderr(self, stderr: str) -> tuple[dict[str, int], str]:
        assert not SANITIZER_REPORT.search(stderr), stderr
        return parse_stderr(stderr)

    def run(self, *args, wrapper=(), timeout=120, **kw) -> Result:
        """Run splicecat ARGS (stdout captured unless given), return the Result."""
        kw.setdefault("stdout", subprocess.PIPE)
        p = subprocess.run(
            self.argv(*args, wrapper=wrapper),
            stderr=subprocess.PIPE,
            env=self.env_for(bool(wrapper)),
            timeout=timeout,
            **kw,
        )
        stderr = p.stderr.decode()
        stats, errors = self.check_stderr(stderr)
        return Result(p.returncode, p.stdout, stderr, stats, errors)

    def popen(self, *args, wrapper=(), **kw) -> subprocess.Popen:
        kw.setdefault("stderr", subprocess.PIPE)
        return subprocess.Popen(self.argv(*args, wrapper=wrapper), env=self.env_for(bool(wrapper)), **kw)

    def finish(self, p: subprocess.Popen, timeout=120) -> Result:
        """Wait for a popen()ed run and collect its Result (stdout not kept)."""
        stderr = p.stderr.read().decode()
        p.wait(timeout=timeout)
        stats, errors = self.check_stderr(stderr)
        return Result(p.returncode, None, stderr, stats, errors)


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_sha(path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(4 * MiB):
            h.update(chunk)
    return h.hexdigest()


def gnu(*argv, **kw) -> subprocess.CompletedProcess:
    """Run a GNU tool (cat, tee) to get the reference output."""
    kw.setdefault("stdout", subprocess.PIPE)
    return subprocess.run(list(map(str, argv)), stderr=subprocess.PIPE, **kw)


def shell(sc: Splicecat, script: str, **kw) -> subprocess.CompletedProcess:
    """Run SCRIPT with bash (pipelines, `trap`, `>&-`), in SC's environment."""
    return subprocess.run(["bash", "-c", script], capture_output=True, env=sc.env_for(False), **kw)
