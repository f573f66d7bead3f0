#!/usr/bin/env python3
"""`dump > F && restore < F` against `dump | restore`: the cost PL304 names.

No published source measures this shape, so it is measured here with
stand-ins that cost CPU the way the real tools do: the "dump" decompresses a
gzip file of SQL text (a producer that spends CPU per byte, as mysqldump
formatting rows does), the "restore" hashes what it reads (a consumer that
spends CPU per byte, as a client parsing statements does). Both forms run
alternately in one invocation (A B A B …); medians of wall time and CPU and
the wall ratio are reported. The two-step form also writes the whole dump to
disk and reads it back; the file is removed after each round.

    python tests/benchmarks/bench_dump_restore.py --size-mib 512 --rounds 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess

from bench_redirect import scratch_folder, timed  # noqa: E402  (same folder: run as a script)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mib", type=int, default=512)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--restore", default="sha256sum", help="the restore stand-in, reading stdin")
    args = parser.parse_args()
    with scratch_folder("dump") as work:
        source = work / "dump.sql.gz"
        line = b"INSERT INTO t VALUES (%d, 'abcdefghijklmnopqrstuvwxyz', 3.14159, '2026-11-24 00:00:00');\n"
        with subprocess.Popen(["gzip", "-1"], stdin=subprocess.PIPE, stdout=open(source, "wb")) as gzip:
            written, row = 0, 0
            while written < args.size_mib << 20:
                chunk = b"".join(line % (row + i) for i in range(10000))
                gzip.stdin.write(chunk)  # type: ignore[union-attr]
                written, row = written + len(chunk), row + 10000
        dump, staged = f"gzip -dc {source}", work / "staged.sql"
        two_steps = f"{dump} > {staged} && {args.restore} < {staged} > /dev/null; rm -f {staged}"
        streamed = f"{dump} | {args.restore} > /dev/null"
        timed(two_steps), timed(streamed)  # warm up
        samples: dict[str, list[tuple[float, float]]] = {"two": [], "stream": []}
        for _ in range(args.rounds):
            samples["two"].append(timed(two_steps))
            samples["stream"].append(timed(streamed))
        wall = {k: statistics.median(s[0] for s in v) for k, v in samples.items()}
        cpu = {k: statistics.median(s[1] for s in v) for k, v in samples.items()}
        print(f"{args.size_mib} MiB of SQL text, {args.rounds} alternating rounds, medians; {os.cpu_count()} CPUs,")
        print(f"kernel {os.uname().release}; dump stand-in `gzip -dc`, restore stand-in `{args.restore}`\n")
        print("| form | wall | CPU |")
        print("|---|---|---|")
        print(f"| `dump > F && restore < F` | {wall['two']:.2f} s | {cpu['two']:.2f} s |")
        print(f"| `dump \\| restore` | {wall['stream']:.2f} s | {cpu['stream']:.2f} s |")
        print(f"\nwall ratio (two steps / streamed): {wall['two'] / wall['stream']:.2f}×")


if __name__ == "__main__":
    main()
