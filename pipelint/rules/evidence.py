"""What the rules' messages cite: measured costs, and the sources they come from by title.

One constant per measurement, named for what was measured; the comment above
each says where the number comes from and how to see it again. Sources are
named by their titles (docs/references.md lists them with what each measured
and which rules cite it), never by an internal number.
"""

from __future__ import annotations

# The sources, by the titles a reader can search for.
REDIRECTING_DUMPS = "Why Redirecting Large MySQL Dumps Is Up to 3× Faster Than Using Pipes"
PASS_THROUGH_STAGES = "Beware of pass-through stages in pipelines"
LOAD_DATA_INFILE = "LOAD DATA INFILE (and mysqldump)"
TRANSFERRING_LARGE_FILES = 'High Performance MySQL, appendix C "Transferring Large Files"'
MDEV_38362 = 'MariaDB MDEV-38362 "Develop an efficient alternative to mbstream"'
SOURCES = (REDIRECTING_DUMPS, PASS_THROUGH_STAGES, LOAD_DATA_INFILE, TRANSFERRING_LARGE_FILES, MDEV_38362)

# REDIRECTING_DUMPS: a 419 MB dump, page-cached, 0.596 s through `cat |` against
# 0.151 s by redirect (tests/benchmarks/bench_redirect.py reruns the shape).
PIPED_DUMP = "a 419 MB dump imported about 3× faster by redirect than through `cat |`"

# tests/benchmarks/bench_xargs_per_file.py: 3,000 small page-cached files on a 2-core VM (load 6.4):
# `ls | xargs -I{} basename {}` 2.91 s of CPU, `ls | xargs -d '\n' basename -a` 0.008 s; `xargs -n 1
# sha256sum` 3.17 s against 0.03 s.
XARGS_PER_ITEM = "3,000 files cost 2.9 s of CPU one `basename` each, 0.01 s in one call (measured here)"

# PASS_THROUGH_STAGES: "a production process on a twelve-core server speed up
# eight fold when the logging tee which pointed to an NFS mount was removed".
TEE_TO_NFS = "a logging tee to NFS slowed a production job 8×"

# MDEV_38362: `dd bs=1M` copied 3.2 TiB (3,473,420,582,912 bytes) with 0.231 s
# of user+system CPU.
DD_ONE_MIB_BLOCKS = "`dd bs=1M` copied 3.2 TiB with 0.2 s of CPU (MariaDB MDEV-38362)"

# TRANSFERRING_LARGE_FILES, table C-1: a 738 MB file took 60 s by gzip, scp and
# gunzip (44 + 10 + 6) and 44 s compressed and streamed over ssh.
SERIALIZED_TRANSFER = (
    "a 738 MB file took 60 s this way and 44 s compressed and streamed in one step (High Performance MySQL)"
)

# No source measures this shape; tests/benchmarks/bench_dump_restore.py does,
# with stand-ins (docs/benchmarks.md): 256 MiB of SQL text, `gzip -dc` as the
# dump and `sha256sum` as the restore, 7.62 s in two steps against 3.43 s
# streamed (2.2×) on a 2-core VM. The cost: the whole dump is written to disk
# and read back, and the restore waits for its last byte.
DUMP_THEN_RESTORE = "with stand-ins for both tools the two steps took 2.2× as long as the stream (256 MiB measured)"

# TRANSFERRING_LARGE_FILES, table C-1 again: of the 60 s, compressing took 44 s
# and copying 10 s, one after the other; compressing, sending and
# decompressing all at once took 44 s.
SERIALIZED_COPY = (
    "a 738 MB file took 44 s to compress and 10 s more to copy, against 44 s for compressing, "
    "sending and decompressing at once (High Performance MySQL)"
)

# Measured here on a 512 MB CSV dump (rules/PL302-slow-compression-in-transfer.md
# gives the command): gzip at its default level 6.95 s of CPU, gzip -1 3.89 s
# for a 22% larger output, zstd -1 -T0 0.77 s for an output smaller than gzip's.
SLOW_COMPRESSION = (
    "on a 512 MB dump `gzip -1` needed 3.9 s of CPU against 7.0 s at the default level (output 22% larger), "
    "`zstd -1 -T0` 0.8 s"
)

# LOAD_DATA_INFILE: 20M rows, two secondary indexes; 389.9 s in random key
# order with the indexes in place, 141.5 s in key order with them added after.
UNSORTED_BULK_LOAD = (
    "a load in random primary-key order with secondary indexes in place "
    "took 2.8× as long as a sorted load with the indexes added afterwards"
)

# docs/splicecat.md, `python3 tests/benchmarks/bench_splicecat.py --size 1G --rounds 7`:
# file → pipe, 2.0–2.1× cat 9.1's speed at 0.42–0.46× its CPU.
SPLICECAT_CONCAT = "`splicecat` splices them without that copy (2× faster at under half the CPU, 1 GiB measured)"

# docs/splicecat.md, same command: `cat | splicecat --tee` ran 3.6–3.9× faster
# than `cat | tee` at 0.25–0.28× its CPU.
SPLICECAT_TEE = (
    "`splicecat --tee` duplicates the pipe in the kernel (3.6–3.9× faster, a quarter of the CPU, 1 GiB measured)"
)
