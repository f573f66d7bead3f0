"""The mount table behind PL102: parsing mountinfo, finding a path's mount, telling slow from local."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pipelint.facts import mounts

FIXTURES = Path(__file__).parent.parent / "fixtures" / "mounts"
WORKSTATION = str(FIXTURES / "workstation.mountinfo")


@pytest.fixture(scope="module")
def table() -> mounts.MountTable:
    return mounts.load(WORKSTATION)


def fstype(table: mounts.MountTable, path: bytes) -> str | None:
    found = table.find(path)
    return None if found is None else found.fstype


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        (b"/", "ext4"),
        (b"/var/log/job.log", "ext4"),
        (b"/home/ana/notes", "ext4"),
        (b"/mnt/nfs", "nfs4"),
        (b"/mnt/nfs/logs/job.log", "nfs4"),
        # Nested mounts: the longest matching mount point wins.
        (b"/mnt/nfs/local-cache/job.log", "ext4"),
        (b"/home/ana/remote/out.txt", "fuse.sshfs"),
        # Component-wise, not character-wise: /mnt/nfsish is not under /mnt/nfs.
        (b"/mnt/nfsish/job.log", "ext4"),
        # Two mounts on one mount point: the later line is on top.
        (b"/srv/stack/file", "nfs"),
    ],
)
def test_longest_matching_mount_point_wins(table, path, expected):
    assert fstype(table, path) == expected


def test_octal_escapes_in_mount_points(table):
    assert fstype(table, b"/mnt/team share/report.csv") == "cifs"
    assert table.find(b"/mnt/team share/report.csv").source == "//nas/team share"
    assert fstype(table, b"/mnt/tab\tand\\back/x") == "glusterfs"
    assert fstype(table, b"/mnt/team\\040share/x") == "ext4"  # the escaped form is not a path


@pytest.mark.parametrize(
    ("path", "slow"),
    [
        (b"/mnt/nfs/job.log", True),
        (b"/mnt/team share/x", True),
        (b"/home/ana/remote/x", True),
        (b"/mnt/bucket/x", True),
        (b"/mnt/host/x", True),
        (b"/mnt/rclone/x", True),
        (b"/run/user/1000/gvfs/x", False),
        (b"/mnt/nfs/local-cache/x", False),
        (b"/tmp/x", False),
        (b"/var/log/x", False),
    ],
)
def test_slow_filesystems(table, path, slow):
    assert table.find(path).is_slow is slow


@pytest.mark.parametrize(
    ("fstype", "source", "slow"),
    [
        ("nfs", "srv:/x", True),
        ("NFS4", "srv:/x", True),
        ("cifs", "//srv/x", True),
        ("smb3", "//srv/x", True),
        ("9p", "share", True),
        ("ceph", "10.0.0.1:/", True),
        ("davfs", "https://dav.example/", True),
        ("fuse.sshfs", "u@h:/", True),
        ("fuse.glusterfs", "gl:/v", True),
        ("fuse", "sshfs#u@h:/srv", True),
        ("fuse", "https://dav.example/remote.php", True),
        ("fuse.unknownnet", "host:/path", True),
        ("fuse.lxcfs", "lxcfs", False),
        ("fuse.portal", "portal", False),
        ("fuseblk", "/dev/sdb1", False),
        ("ext4", "/dev/sda1", False),
        ("xfs", "srv:/looks-remote-but-is-local", False),
        ("tmpfs", "tmpfs", False),
        ("overlay", "overlay", False),
    ],
)
def test_classification(fstype, source, slow):
    assert mounts.is_slow_filesystem(fstype, source) is slow


def test_partly_known_path_needs_every_mount_below_to_be_slow(table):
    # `/mnt/nfs/$dir/x`: $dir could be local-cache, which is local.
    assert mounts.slow_place(b"/mnt/nfs", False, table) is None
    # `/mnt/nfs/logs/$job.log`: nothing is mounted below /mnt/nfs/logs.
    place = mounts.slow_place(b"/mnt/nfs/logs", False, table)
    assert place is not None and place.where == "/mnt/nfs"
    assert place.reason == "nfs4 mount filer:/export/jobs"
    # A complete path needs no such care.
    assert mounts.slow_place(b"/mnt/nfs/x.log", True, table).where == "/mnt/nfs"
    # `/$top/x`: the root is local, and slow mounts lie below it.
    assert mounts.slow_place(b"/", False, table) is None


def test_configured_prefixes(table):
    local = mounts.MountTable()
    assert mounts.slow_place(b"/data/logs/x", True, local, ("/data",)).reason == "listed in slow-mounts"
    assert mounts.slow_place(b"/data/logs/x", True, local, ("/data/",)).where == "/data/"
    assert mounts.slow_place(b"/database/x", True, local, ("/data",)) is None
    assert mounts.slow_place(b"logs/x", True, local, ("logs",)).where == "logs"
    assert mounts.slow_place(b"logs/x", True, table, ()) is None  # relative: unknown mount
    assert mounts.slow_place(b"/x", True, local, ("",)) is None


def test_proc_mounts_format_is_understood_too():
    table = mounts.load(str(FIXTURES / "proc-mounts.txt"))
    assert fstype(table, b"/mnt/nfs/a") == "nfs4"
    assert fstype(table, b"/mnt/a b/c") == "cifs"
    assert fstype(table, b"/etc/passwd") == "ext4"


def test_malformed_lines_are_skipped():
    table = mounts.load(str(FIXTURES / "garbage.mountinfo"))
    assert [m.point for m in table.mounts] == [b"/"]


def test_missing_table_is_empty(tmp_path):
    assert mounts.load(str(tmp_path / "nowhere")).mounts == ()
    assert mounts.load(str(tmp_path)).mounts == ()  # a directory


def test_loaded_once_per_path(tmp_path):
    table_file = tmp_path / "mountinfo"
    table_file.write_bytes(b"27 1 254:0 / / rw - ext4 /dev/vda1 rw\n")
    first = mounts.load(str(table_file))
    table_file.write_bytes(b"27 1 254:0 / / rw - nfs srv:/ rw\n")
    assert mounts.load(str(table_file)) is first


def test_the_running_system_table_parses():
    table = mounts.load(None)
    assert table.find(b"/") is not None


POINTS = [b"/", b"/mnt", b"/mnt/nfs", b"/mnt/nfs/a", b"/mnt/nfs-old", b"/mnt/x", b"/data", b"/data/x/y", b"/mnt/nfs/a/b"]


def _find_in_every_mount(table: tuple, path: bytes):
    best = None
    for mount in table:
        if mounts.is_under(path, mount.point) and (best is None or len(mount.point) >= len(best.point)):
            best = mount
    return best


def _table_rebuilt(system: tuple, events: list, offset: int) -> tuple:
    extra: list = []
    for at, event in events:
        if at > offset:
            break
        extra = [*extra, event] if isinstance(event, mounts.Mount) else [m for m in extra if m.point != event]
    return system + tuple(extra)


@pytest.mark.parametrize("seed", range(40))
def test_the_indexed_tables_answer_as_a_look_at_every_mount(seed):
    """find and below by mount point (linear on a script with a mount per write) against the rule they
    replaced: the system's mounts plus the script's up to the offset, each asked in turn."""
    rng = random.Random(seed)

    def mount() -> mounts.Mount:
        return mounts.Mount(rng.choice(POINTS), rng.choice(["nfs4", "ext4", "fuse.sshfs", "tmpfs"]), rng.choice(["srv:/x", "h:/", "/dev/sda1"]))

    system = mounts.MountTable(tuple(mount() for _ in range(rng.randrange(0, 8))))
    events = []
    for at in sorted(rng.sample(range(1000), rng.randrange(0, 12))):
        events.append((at, mount() if rng.random() < 0.7 else rng.choice(POINTS)))
    script = mounts.ScriptMounts(events)
    paths = [*POINTS, b"/mnt/nfs/a/file", b"/mnt/nfsx/f", b"/data/x", b"/data/x/y/z", b"relative/path", b"/mnt/nfs/"]
    for offset in [-1, *range(0, 1001, 37)]:
        table = mounts.MountTableAt(system, script, offset) if events else system
        every = _table_rebuilt(system.mounts, events, offset)
        for path in paths:
            assert table.find(path) == _find_in_every_mount(every, path), (offset, path)
            expected = [m for m in every if m.point != path and mounts.is_under(m.point, path)]
            assert sorted(map(repr, table.below(path))) == sorted(map(repr, expected)), (offset, path)
