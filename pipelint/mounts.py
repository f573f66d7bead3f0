"""The mount table: which filesystem a path lies on, and whether it is slow.

PL102 (tee-slow-mount) asks "is this log file on NFS?". The answer comes from
a mountinfo-format file (`/proc/self/mountinfo` unless `--mounts FILE` names
another), read once per process per file, plus the path prefixes the user
lists in `slow-mounts`.

mountinfo lines look like (proc(5)):

    36 35 98:0 /mnt1 /mnt/parent\\040dir rw,noatime master:1 - nfs4 srv:/export rw

Fields 5 (mount point), 4 (root) and the source escape space, tab, newline and
backslash as octal (`\\040`, `\\011`, `\\012`, `\\134`). A path lies on the mount
whose mount point is its longest matching prefix, component by component; when
two mounts share a mount point, the later line is the one on top.
"""

from __future__ import annotations

import functools
import os
import posixpath
import re
from dataclasses import dataclass

from pipelint.properties import cached_property

PROC_MOUNTINFO = "/proc/self/mountinfo"

# Filesystems that send every write over a network (or a hypervisor channel).
SLOW_TYPES = frozenset(
    {
        "nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "glusterfs", "ceph", "davfs",
        "sshfs", "afs", "lustre", "gpfs", "beegfs", "orangefs", "pvfs2", "ncpfs", "coda",
    }
)  # fmt: skip

# FUSE subtypes (`fuse.NAME`) that are network filesystems.
NETWORK_FUSE = frozenset(
    {
        "sshfs", "glusterfs", "ceph", "ceph-fuse", "cephfs", "davfs", "davfs2", "s3fs", "rclone",
        "gcsfuse", "goofys", "mountpoint-s3", "blobfuse", "blobfuse2", "juicefs", "moosefs", "mfs",
        "lizardfs", "seaweedfs", "curlftpfs", "httpfs2", "smbnetfs", "afpfs", "wdfs", "webdav",
        "google-drive-ocamlfuse", "onedriver",
    }
)  # fmt: skip

_OCTAL = re.compile(rb"\\([0-7]{3})")
# A FUSE source that names another host: `user@host:/path`, `host:path`, `scheme://…`.
_REMOTE_SOURCE = re.compile(r"^(?:[a-z][a-z0-9+.-]*://|[^/\s:]+:)", re.IGNORECASE)


def unescape(field: bytes) -> bytes:
    """Undo the kernel's octal escapes: `a\\040b` → `a b`."""
    return _OCTAL.sub(lambda match: bytes([int(match.group(1), 8) & 0xFF]), field)


@dataclass(frozen=True)
class Mount:
    point: bytes  # absolute, unescaped
    fstype: str
    source: str

    @property
    def is_slow(self) -> bool:
        return is_slow_filesystem(self.fstype, self.source)


def is_slow_filesystem(fstype: str, source: str = "") -> bool:
    """Network filesystems, and FUSE mounts that talk to another host."""
    kind = fstype.lower()
    if kind in SLOW_TYPES:
        return True
    if kind == "fuse" or kind == "fuseblk" or kind.startswith("fuse."):
        subtype = kind.partition(".")[2]
        if subtype in NETWORK_FUSE:
            return True
        # Old-style `sshfs#user@host:` sources, rclone `remote:path`, davfs URLs.
        source = source.partition("#")[2] or source
        return bool(_REMOTE_SOURCE.match(source)) and kind != "fuseblk"
    return False


@dataclass(frozen=True)
class MountTable:
    mounts: tuple[Mount, ...] = ()

    def find(self, path: bytes) -> Mount | None:
        """The mount an absolute path lies on: the longest matching mount point, the last on ties."""
        best: Mount | None = None
        for mount in self.mounts:
            if is_under(path, mount.point) and (best is None or len(mount.point) >= len(best.point)):
                best = mount
        return best

    @cached_property
    def any_slow(self) -> bool:
        """Whether any mount of the table is slow: on most machines none is, and no path can be."""
        return any(mount.is_slow for mount in self.mounts)

    def below(self, directory: bytes) -> list[Mount]:
        """Mounts strictly inside directory: a path that is only partly known may land on them."""
        return [m for m in self.mounts if m.point != directory and is_under(m.point, directory)]


def is_under(path: bytes, prefix: bytes) -> bool:
    """Component-wise prefix: /mnt/nfs contains /mnt/nfs/a but not /mnt/nfsx."""
    if prefix == b"/":
        return path.startswith(b"/")
    prefix = prefix.rstrip(b"/")
    return path == prefix or path.startswith(prefix + b"/")


def parse(data: bytes) -> MountTable:
    """Read mountinfo lines (or /proc/mounts lines); malformed lines are skipped."""
    mounts = []
    for line in data.splitlines():
        mount = _parse_mountinfo_line(line) or _parse_mounts_line(line)
        if mount is not None:
            mounts.append(mount)
    return MountTable(tuple(mounts))


def _parse_mountinfo_line(line: bytes) -> Mount | None:
    fields = line.split()
    if b"-" not in fields[6:]:
        return None
    separator = fields.index(b"-", 6)
    if separator < 6 or len(fields) < separator + 3:
        return None
    point = unescape(fields[4])
    if not point.startswith(b"/"):
        return None
    fstype = fields[separator + 1].decode("utf-8", "replace")
    source = unescape(fields[separator + 2]).decode("utf-8", "replace")
    return Mount(_normalise(point), fstype, source)


def _parse_mounts_line(line: bytes) -> Mount | None:
    """`/proc/mounts` / fstab shape: source point type options dump pass."""
    fields = line.split()
    if len(fields) < 4 or fields[0].startswith(b"#") or not fields[1].startswith(b"/"):
        return None
    return Mount(
        _normalise(unescape(fields[1])),
        fields[2].decode("utf-8", "replace"),
        unescape(fields[0]).decode("utf-8", "replace"),
    )


def _normalise(path: bytes) -> bytes:
    return posixpath.normpath(path) if path != b"/" else path


@functools.lru_cache(maxsize=32)
def load(path: str | None = None) -> MountTable:
    """The mount table in path (default /proc/self/mountinfo), parsed once per process.

    An unreadable table is an empty one: PL102 then relies on `slow-mounts` only.
    """
    try:
        with open(path or PROC_MOUNTINFO, "rb") as handle:
            return parse(handle.read())
    except (OSError, ValueError):
        return MountTable()


@dataclass(frozen=True)
class SlowPlace:
    """Why a path is slow: the mount it lies on, or the configured prefix it starts with."""

    where: str  # the mount point or prefix, for messages
    reason: str  # "nfs4 mount srv:/export" or "listed in slow-mounts"


def slow_place(
    known: bytes,
    complete: bool,
    table: MountTable,
    slow_prefixes: tuple[str, ...] = (),
) -> SlowPlace | None:
    """Where `known` is slow, or None.

    known is a normalised path; when complete is False it is only the directory
    the real path starts with (`/mnt/nfs/logs/$job.log` → `/mnt/nfs/logs`) and
    every mount below it must be slow too, since the rest could lead there.
    """
    for prefix in slow_prefixes:
        wanted = os.fsencode(posixpath.normpath(prefix)) if prefix else b""
        if wanted and is_under(known, wanted):
            return SlowPlace(prefix, "listed in slow-mounts")
    if not known.startswith(b"/"):
        return None
    mount = table.find(known)
    if mount is None or not mount.is_slow:
        return None
    if not complete and not all(other.is_slow for other in table.below(known)):
        return None
    point = mount.point.decode("utf-8", "replace")
    return SlowPlace(point, f"{mount.fstype} mount {mount.source}".rstrip())
