#!/usr/bin/env python3
"""`cat FILE | consumer` against pipelint's fix of it: the cost PL001/PL004 remove, per consumer.

For each consumer the useless-reader rules name (sort, gzip, xz, zstd, a
mysql and a psql stand-in, wc, grep, awk, sed, tar x, dd) the script
`cat F | consumer` is linted and fixed by pipelint itself (`--fix
--unsafe-fixes`), so the second column is what the rule offers today:
`consumer < F`, a fix that keeps the output (`gzip -n < F`), or, where no
fix is offered, the plain redirect a user would write by hand (marked "no
fix"). The two forms alternate in one run (A B A B …) on a page-cached file;
the table gives median wall time, median CPU time (user+sys of every
process) and their ratios (above 1: the fixed form is faster). A check first
asserts that the two forms leave the same output where the fix is called
safe.

    python tests/benchmarks/bench_redirect.py --size-mib 100 --rounds 5
    python tests/benchmarks/bench_redirect.py --only sort,gzip --rounds 9

The stand-ins: `mysql` reads standard input with read(2) in 16 KiB blocks
and splits lines, as the client's batch reader does; `psql` reads it with
fgets(3) (stdio), as psql's `gets_fromFile` does; `fread()` is the dump
article's loop. They are compiled here with cc.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

READER_C = r"""
#include <stdio.h>
static char buf[65536];
int main(void) { while (fread(buf, sizeof buf, 1, stdin) > 0) {} return 0; }
"""
MYSQL_C = r"""
#include <string.h>
#include <unistd.h>
static char buf[16384];
int main(void) {
    long lines = 0; ssize_t got;
    while ((got = read(0, buf, sizeof buf)) > 0)
        for (char *p = buf; (p = memchr(p, '\n', buf + got - p)) != NULL; p++) lines++;
    return lines < 0;
}
"""
PSQL_C = r"""
#include <stdio.h>
static char line[8192];
int main(void) { long lines = 0; while (fgets(line, sizeof line, stdin)) lines++; return lines < 0; }
"""


def timed(command: str, quiet: bool = False) -> tuple[float, float]:
    """Wall and CPU seconds of one run of command under bash (quiet: its stderr thrown away, dd's records)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(["bash", "-c", command], check=True, stderr=subprocess.DEVNULL if quiet else None)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def measure(piped: str, redirected: str, rounds: int, quiet: bool) -> tuple[dict[str, float], dict[str, float]]:
    """Median wall and CPU seconds of each form, alternating them after one warm-up run each."""
    timed(piped, quiet), timed(redirected, quiet)  # warm up
    samples: dict[str, list[tuple[float, float]]] = {"piped": [], "redirected": []}
    for _ in range(rounds):
        samples["piped"].append(timed(piped, quiet))
        samples["redirected"].append(timed(redirected, quiet))
    wall = {k: statistics.median(s[0] for s in v) for k, v in samples.items()}
    cpu = {k: statistics.median(s[1] for s in v) for k, v in samples.items()}
    return wall, cpu


def compare(name: str, piped: str, redirected: str, rounds: int, quiet: bool = False) -> str:
    """A table row: median wall / CPU of each form and the ratios (above 1: the second form is faster)."""
    wall, cpu = measure(piped, redirected, rounds, quiet)
    return (
        f"| {name} | {wall['piped']:.3f} s / {cpu['piped']:.3f} s | {wall['redirected']:.3f} s / {cpu['redirected']:.3f} s "
        f"| {wall['piped'] / wall['redirected']:.2f}× | {cpu['piped'] / max(cpu['redirected'], 1e-9):.2f}× |"
    )


# name, the consumer as a script writes it (F: the data file, T: the tar archive, OUT: an output file).
# The input is F unless the consumer reads T.
CONSUMERS = [
    ("sort", "sort > OUT"),
    ("gzip", "gzip > OUT"),
    ("xz", "xz -1 > OUT"),
    ("zstd", "zstd -q > OUT"),
    ("mysql", "mysql shop"),
    ("psql", "psql shop"),
    ("wc -l", "wc -l > OUT"),
    ("wc -c", "wc -c > OUT"),
    ("grep", "grep -c abc > OUT"),
    ("awk", "awk '{ n += length($0) } END { print n }' > OUT"),
    ("sed", "sed -n '$=' > OUT"),
    ("tar x", "tar -x -C DIR"),
    ("dd", "dd of=OUT bs=1M"),
    ("fread()", "reader"),
]


def pipelint_fix(script: str) -> tuple[str, str]:
    """What pipelint makes of `script` with --fix --unsafe-fixes, and how it calls that fix."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from pipelint.engine.config import Settings
    from pipelint.engine.linter import process

    source = f"{script}\necho done\n".encode()  # not the script's last command: its status is not seen
    settings = Settings(unsafe_fixes=True)
    findings = [f for f in process(source, "bench.sh", settings).findings if f.code in ("PL001", "PL004")]
    if not findings:
        return script, "no finding"
    if findings[0].fix is None:
        return script, "no fix"
    kind = findings[0].fix.applicability.value
    return process(source, "bench.sh", settings, fix=True).final_source.decode().splitlines()[0], kind


@contextlib.contextmanager
def scratch_folder(name: str) -> Iterator[Path]:
    """A folder for a benchmark's data, removed when it ends: under $BENCH_DIR, else the working folder."""
    work = Path(tempfile.mkdtemp(prefix=f"bench-{name}-", dir=os.environ.get("BENCH_DIR", Path.cwd())))
    try:
        yield work
    finally:
        shutil.rmtree(work)


def _words(rng: random.Random) -> list[str]:
    """5,000 lowercase words of 3 to 12 letters: keys that give sort, grep and the compressors work."""
    return ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 12))) for _ in range(5000)]


def write_word_lines(path: Path, count: int, seed: int) -> None:
    """count lines `word number number`, from a fixed seed so every run reads the same data (the sort benchmarks)."""
    rng = random.Random(seed)
    words = _words(rng)
    with open(path, "w", encoding="ascii") as handle:
        for _ in range(count):
            handle.write(f"{rng.choice(words)} {rng.randint(0, 99999)} {rng.random():.6f}\n")


def printed(command: str) -> bytes:
    """What command prints on stdout under bash: two forms a benchmark compares must print the same."""
    return subprocess.run(["bash", "-c", command], check=True, capture_output=True).stdout


def require_same_output(benchmark: str, first: str, second: str) -> None:
    """Two forms a benchmark times against each other print the same bytes, or it stops before timing them."""
    if printed(first) != printed(second):
        raise SystemExit(f"{benchmark}: `{first}` and `{second}` print different bytes")


def write_data(path: Path, size_mib: int) -> None:
    """SQL-like lines with a random key, so sort, grep and the compressors have work to do."""
    rng = random.Random(25)
    words = _words(rng)
    with open(path, "w", encoding="ascii") as handle:
        written = 0
        while written < size_mib << 20:
            line = f"INSERT INTO t VALUES ({rng.randrange(10**9)}, '{rng.choice(words)}', {rng.random():.6f});\n"
            written += handle.write(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mib", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", default="", help="comma-separated consumer names (default: all)")
    args = parser.parse_args()
    chosen = [c for c in CONSUMERS if not args.only or c[0] in args.only.split(",")]
    with scratch_folder("redirect") as work:
        data = work / "dump.sql"
        write_data(data, args.size_mib)
        (work / "x").mkdir()
        shutil.copy(data, work / "x" / "dump.sql")
        archive = work / "dump.tar"
        subprocess.run(["tar", "-cf", str(archive), "-C", str(work / "x"), "dump.sql"], check=True)
        shutil.rmtree(work / "x")
        bin_dir = work / "bin"
        bin_dir.mkdir()
        for name, text in (("reader", READER_C), ("mysql", MYSQL_C), ("psql", PSQL_C)):
            (work / f"{name}.c").write_text(text)
            subprocess.run(["cc", "-O2", "-o", str(bin_dir / name), str(work / f"{name}.c")], check=True)
        for path in (data, archive):
            subprocess.run(["cat", str(path)], stdout=subprocess.DEVNULL, check=True)  # page-cache it
        os.environ["PATH"] = f"{bin_dir}{os.pathsep}{os.environ['PATH']}"
        load = os.getloadavg()
        print(f"{args.size_mib} MiB page-cached file, {args.rounds} alternating rounds, medians (wall / CPU)")
        print(f"kernel {os.uname().release}, {os.cpu_count()} CPUs, load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}\n")
        print("| consumer | pipelint's fix | `cat F \\| consumer` | fixed form | wall ratio | CPU ratio |")
        print("|---|---|---|---|---|---|")
        for name, consumer in chosen:
            source = "dump.tar" if "DIR" in consumer else "dump.sql"
            script = f"cat {source} | {consumer}"
            fixed, kind = pipelint_fix(script)
            if kind in ("no finding", "no fix"):
                fixed = f"{consumer} < {source}"  # the redirect a user would write by hand
            out_dir = work / "out"

            def runnable(text: str) -> str:
                filled = text.replace("OUT", str(work / "out.bin")).replace("DIR", str(out_dir))
                return f"cd {work} && rm -rf {out_dir} && mkdir {out_dir} && {filled}"

            if kind == "safe":
                outputs = []
                for form in (script, fixed):
                    printed = subprocess.run(["bash", "-c", runnable(form)], check=True, capture_output=True)
                    written = (work / "out.bin").read_bytes() if (work / "out.bin").exists() else b""
                    outputs.append((printed.stdout, printed.stderr, written))
                if outputs[0] != outputs[1]:
                    raise SystemExit(f"bench_redirect: `{script}` and its safe fix `{fixed}` leave different output")
            row = compare(f"{name} | {kind}: `{fixed}`", runnable(script), runnable(fixed), args.rounds, quiet=True)
            print(row, flush=True)


if __name__ == "__main__":
    main()
