#!/usr/bin/env python3
"""Benchmark splicecat against the GNU tools it replaces in a pipeline.

Not a test (tests/benchmarks is not collected): run it by hand,

    python3 tests/benchmarks/bench_splicecat.py --size 1G --rounds 7
    python3 tests/benchmarks/bench_splicecat.py --sweep --rounds 301

Each case has a baseline (a GNU command) and one or more alternatives.  The
commands run alternately in one invocation (A B A B ...) so that drift in
the machine's load hits all of them alike.  For each command it reports the
median wall time and the median CPU time (user + sys of the shell and all
its children, from os.wait4), and the ratios against the baseline.  The
input file is created in a temporary directory on the same filesystem as
the repository (not tmpfs) and read once first, so every run reads it from
the page cache.  Prints a markdown table.

--sweep measures instead where read/write beats the kernel's methods on
small files (SMALL_INPUT_MAX in runtime/splicecat.c): it builds two variants
of runtime/, one that uses the kernel's methods for every regular file
(-DSPLICECAT_SMALL_INPUT_MAX=0) and one that uses read/write for every
regular file (-DSPLICECAT_READ_WRITE_MAX=<max>), and runs each alternately,
on one file per run (sizes 1 byte to 256 KiB: the setup a run pays) and on
1000 files per run (512 B to 8 KiB: what each file costs).  Per run it takes
splicecat's own CPU time (os.wait4 on its pid: no shell, no consumer); the
process start (~1 ms) is the same in both.  For pipe → pipe, where no size is
known, the read/write column is GNU cat, for information.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# (case, goal, [(label, shell command)], first = baseline).  F is the input,
# G an output file removed before each run, SC the splicecat binary.
CASES = [
    ("file → pipe", "≥ 2.5× faster, ≤ 0.4× CPU", [
        ("cat", 'cat "$F" | cat >/dev/null'),
        ("splicecat", '"$SC" "$F" | cat >/dev/null'),
    ]),
    ("tee in the middle", "≥ 4× faster", [
        ("cat | tee", 'cat "$F" | tee "$G" | cat >/dev/null'),
        ("splicecat | splicecat --tee", '"$SC" "$F" | "$SC" --tee "$G" | cat >/dev/null'),
        ("cat | splicecat --tee", 'cat "$F" | "$SC" --tee "$G" | cat >/dev/null'),
    ]),
    ("file → file", "parity with cp", [
        ("cp", 'cp "$F" "$G"'),
        ("cat >", 'cat "$F" > "$G"'),
        ("splicecat >", '"$SC" "$F" > "$G"'),
    ]),
    ("pipe → file", "≥ 1.4× faster", [
        ("cat", 'cat "$F" | cat > "$G"'),
        ("splicecat", 'cat "$F" | "$SC" > "$G"'),
    ]),
    ("dd → pipe", "(information)", [
        ("dd bs=1M", 'dd if="$F" bs=1M status=none | cat >/dev/null'),
        ("splicecat", '"$SC" "$F" | cat >/dev/null'),
    ]),
    # S: SMALL_FILES files of SMALL_SIZE bytes each (make_small_inputs).
    ("small files → pipe", "parity with cat", [
        ("cat", 'cat "$S"/* | cat >/dev/null'),
        ("splicecat", '"$SC" "$S"/* | cat >/dev/null'),
    ]),
]

# The "small files" case: a directory of config-sized files, the kind
# `cat *.conf | consumer` concatenates; 4 KiB is below SMALL_INPUT_MAX.
SMALL_FILES, SMALL_SIZE = 1000, 4096

# --sweep: (files per run, file sizes), and the output each case gives splicecat.
SWEEP_RUNS = [(1, [1, 1024, 4096, 8192, 16384, 32768, 65536, 131072, 262144]),
              (1000, [512, 4096, 8192])]
# "pipe → pipe" has no threshold (a pipe has no size to go by): there the
# read/write column is GNU cat 9.1, the alternative, for information.
SWEEP_CASES = ["file → pipe", "file → file", "file → /dev/null", "pipe → pipe"]


def parse_size(text: str) -> int:
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    if text[-1].upper() in units:
        return int(float(text[:-1]) * units[text[-1].upper()])
    return int(text)


def build_splicecat(build: Path, *defines: str) -> str:
    """Build runtime/ into BUILD with C preprocessor DEFINES; return the binary."""
    flags = " ".join(f"-D{d}" for d in defines)
    subprocess.run(["cmake", "-S", str(REPO / "runtime"), "-B", str(build), f"-DCMAKE_C_FLAGS={flags}"],
                   check=True, capture_output=True)
    subprocess.run(["cmake", "--build", str(build)], check=True, capture_output=True)
    return str(build / "splicecat")


def find_splicecat(given: str | None, work: Path) -> str:
    for candidate in (given, os.environ.get("SPLICECAT"), shutil.which("splicecat")):
        if candidate:
            return str(Path(candidate).resolve())
    return build_splicecat(work / "build")


def work_dir(given: str | None) -> Path:
    """A temporary directory on the repository's filesystem (not tmpfs)."""
    if given:
        return Path(tempfile.mkdtemp(prefix="bench-splicecat-", dir=given))
    tmp = Path(tempfile.gettempdir())
    if tmp.stat().st_dev == REPO.stat().st_dev:
        return Path(tempfile.mkdtemp(prefix="bench-splicecat-", dir=tmp))
    (REPO / "build").mkdir(exist_ok=True)  # /build/ is git-ignored
    return Path(tempfile.mkdtemp(prefix="bench-splicecat-", dir=REPO / "build"))


def make_input(path: Path, size: int) -> None:
    block = os.urandom(1 << 20)
    with open(path, "wb") as f:
        for _ in range(size >> 20):
            f.write(block)
        f.write(block[: size & ((1 << 20) - 1)])
    subprocess.run(["cat", str(path)], stdout=subprocess.DEVNULL, check=True)  # into the page cache


def make_small_inputs(directory: Path) -> None:
    directory.mkdir()
    for i in range(SMALL_FILES):
        (directory / f"{i:04d}.conf").write_bytes(os.urandom(SMALL_SIZE))
    subprocess.run(["cat", *sorted(map(str, directory.iterdir()))], stdout=subprocess.DEVNULL, check=True)


def run_once(command: str, env: dict[str, str], output: Path, nice: int | None) -> tuple[float, float]:
    """Run COMMAND under bash (and nice); return (wall seconds, CPU seconds)."""
    if output.exists():
        output.unlink()
    argv = ["bash", "-o", "pipefail", "-c", command]
    if nice is not None:
        argv = ["nice", "-n", str(nice), *argv]
    start = time.perf_counter()
    pid = os.spawnvpe(os.P_NOWAIT, argv[0], argv, env)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"command failed ({status:#x}): {command}")
    return wall, usage.ru_utime + usage.ru_stime


def run_alone(argv: list[str], source: Path, case: str, work: Path, n_files: int = 1) -> float:
    """Run ARGV on SOURCE (N_FILES times) wired as CASE says; return its own CPU seconds."""
    feeder = consumer = None
    stdin = subprocess.DEVNULL
    if case == "pipe → pipe":
        feeder = subprocess.Popen(["cat", str(source)], stdout=subprocess.PIPE)
        stdin = feeder.stdout
    else:
        argv = [*argv, *[str(source)] * n_files]
    if case.endswith("→ pipe"):
        read_end, out = os.pipe()
        consumer = subprocess.Popen(["cat"], stdin=read_end, stdout=subprocess.DEVNULL)
        os.close(read_end)
    elif case == "file → file":
        out = os.open(work / "G", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    else:
        out = os.open(os.devnull, os.O_WRONLY)
    process = subprocess.Popen(argv, stdin=stdin, stdout=out)
    os.close(out)
    if feeder:
        feeder.stdout.close()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    for helper in (feeder, consumer):
        if helper:
            helper.wait()
    if process.returncode != 0:
        sys.exit(f"{argv} failed on {case}")
    return usage.ru_utime + usage.ru_stime


def sweep(rounds: int, work: Path) -> None:
    """Print splicecat's CPU per run with the kernel's methods and with read/write."""
    variants = {
        "kernel": [build_splicecat(work / "build-kernel", "SPLICECAT_SMALL_INPUT_MAX=0")],
        "read/write": [build_splicecat(work / "build-rw", "SPLICECAT_READ_WRITE_MAX=0x7fffffff")],
    }
    jobs = []
    for n_files, sizes in SWEEP_RUNS:
        for size in sizes:
            make_input(work / f"in-{size}", size)
            cases = SWEEP_CASES if n_files == 1 else SWEEP_CASES[:-1]  # a pipe is one stream
            jobs += [(case, n_files, size, variant) for case in cases for variant in variants]
    cpu: dict[tuple[str, int, int, str], list[float]] = {}
    for _ in range(rounds):
        random.shuffle(jobs)  # drift in the machine's load hits every job alike
        for case, n_files, size, variant in jobs:
            argv = ["cat"] if case == "pipe → pipe" and variant == "read/write" else variants[variant]
            seconds = run_alone(argv, work / f"in-{size}", case, work, n_files)
            cpu.setdefault((case, n_files, size, variant), []).append(seconds)

    print("| case | files per run | size | kernel: CPU (median) | read/write: CPU (median) | read/write vs kernel |")
    print("|---|---:|---:|---:|---:|---:|")
    for key in sorted({job[:3] for job in jobs}, key=lambda k: (k[1], SWEEP_CASES.index(k[0]), k[2])):
        kernel = statistics.median(cpu[(*key, "kernel")]) * 1e6
        readwrite = statistics.median(cpu[(*key, "read/write")]) * 1e6
        case, n_files, size = key
        print(f"| {case} | {n_files} | {size} | {kernel:.0f} µs | {readwrite:.0f} µs | {readwrite / kernel:.3f} |")


def machine_facts() -> list[str]:
    coreutils = subprocess.run(["cat", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    pipe_max = Path("/proc/sys/fs/pipe-max-size").read_text().strip()
    return [
        f"nproc {os.cpu_count()}",
        f"kernel {platform.release()}",
        coreutils,
        f"pipe-max-size {pipe_max}",
        f"load average {Path('/proc/loadavg').read_text().split()[0]}",
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", default="1G", help="input size, e.g. 256M, 1G (default 1G)")
    ap.add_argument("--rounds", type=int, default=7, help="alternating rounds (default 7)")
    ap.add_argument("--splicecat", help="binary to test (default $SPLICECAT, PATH, or a fresh build)")
    ap.add_argument("--dir", help="where to put the input (default: a temp dir on the repo's filesystem)")
    ap.add_argument("--only", help="run only the cases whose name starts with this, e.g. \"pipe\"")
    ap.add_argument("--sweep", action="store_true",
                    help="measure the small-input threshold instead (see above); --rounds 201 or more")
    ap.add_argument("--nice", type=int, help="run the commands under `nice -n N` (N < 0 needs root): "
                    "on a machine loaded by other work, keeps their share of the CPU out of the wall times")
    args = ap.parse_args()

    work = work_dir(args.dir)
    try:
        if args.sweep:
            print(f"splicecat small-input sweep: page-cached files, {args.rounds} rounds, "
                  "splicecat's own CPU time")
            print("machine: " + "; ".join(machine_facts()))
            print(f"command: python3 tests/benchmarks/bench_splicecat.py --sweep --rounds {args.rounds}")
            print()
            sweep(args.rounds, work)
            print()
            print("machine after: " + machine_facts()[-1])
            return
        size = parse_size(args.size)
        splicecat = find_splicecat(args.splicecat, work)
        source, output = work / "F", work / "G"
        make_input(source, size)
        make_small_inputs(work / "small")
        env = dict(os.environ, F=str(source), G=str(output), S=str(work / "small"), SC=splicecat)

        print(f"splicecat benchmark: {size / (1 << 30):.2f} GiB page-cached file, {args.rounds} alternating rounds")
        print("machine: " + "; ".join(machine_facts()))
        nice = f" --nice {args.nice}" if args.nice is not None else ""
        print(f"command: python3 tests/benchmarks/bench_splicecat.py --size {args.size} --rounds {args.rounds}{nice}")
        print()
        print("| case | command | wall (median) | CPU (median) | speed vs first | CPU vs first | goal |")
        print("|---|---|---:|---:|---:|---:|---|")
        for case, goal, commands in CASES:
            if args.only and not case.startswith(args.only):
                continue
            walls: dict[str, list[float]] = {label: [] for label, _ in commands}
            cpus: dict[str, list[float]] = {label: [] for label, _ in commands}
            for _ in range(args.rounds):
                for label, command in commands:
                    wall, cpu = run_once(command, env, output, args.nice)
                    walls[label].append(wall)
                    cpus[label].append(cpu)
            base_wall = statistics.median(walls[commands[0][0]])
            base_cpu = statistics.median(cpus[commands[0][0]])
            for i, (label, command) in enumerate(commands):
                wall, cpu = statistics.median(walls[label]), statistics.median(cpus[label])
                speed = f"{base_wall / wall:.2f}×" if i else "1"
                cpu_ratio = f"{cpu / base_cpu:.2f}×" if i else "1"
                label_md = label.replace("|", "\\|")
                print(f"| {case if i == 0 else ''} | `{label_md}` | {wall:.3f} s | {cpu:.3f} s "
                      f"| {speed} | {cpu_ratio} | {goal if i == 0 else ''} |", flush=True)
        print()
        print("machine after: " + machine_facts()[-1])
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
