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

import bisect
import functools
import os
import posixpath
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from pipelint.shell.properties import cached_property

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
        """The mount an absolute path lies on: the longest matching mount point, the last on ties.

        A look-up per directory above the path, not a look at every mount: a
        Kubernetes node has hundreds, and a script asks for each file it writes.
        """
        for directory in _directories_holding(path):
            mount = self._by_point.get(directory)
            if mount is not None:
                return mount
        return None

    @cached_property
    def any_slow(self) -> bool:
        """Whether any mount of the table is slow: on most machines none is, and no path can be."""
        return any(mount.is_slow for mount in self.mounts)

    def below(self, directory: bytes) -> list[Mount]:
        """Mounts strictly inside directory: a path that is only partly known may land on them."""
        mounts = [self._sorted[index][1] for index in _inside(self._keys, directory)]
        return [mount for mount in mounts if mount.point != directory]

    @cached_property
    def _by_point(self) -> dict[bytes, Mount]:
        """The mount on top at each mount point (`find`'s answer for the point itself)."""
        return _on_top(self.mounts)

    @cached_property
    def _sorted(self) -> list[tuple[bytes, Mount]]:
        return sorted(((_directory(m.point), m) for m in self.mounts), key=lambda item: item[0])

    @cached_property
    def _keys(self) -> list[bytes]:
        return [directory for directory, _ in self._sorted]


class ScriptMounts:
    """What a script mounts and unmounts, by mount point, for `find` and `below` at any offset.

    Kept by mount point, so a question costs a look-up per directory above the
    path, not a table rebuilt for each offset (a script with 4,000 mounts and a
    write to each took a second per 1,000).
    """

    def __init__(self, events: list[tuple[int, Mount | bytes]]) -> None:
        """events: (offset, a mount or the point an unmount takes back), in order."""
        self._events: dict[bytes, list[tuple[int, Mount | None]]] = {}
        for at, event in events:
            mount = event if isinstance(event, Mount) else None
            point = event.point if isinstance(event, Mount) else event
            self._events.setdefault(_directory(point), []).append((at, mount))  # type: ignore[arg-type]
        self._offsets = {point: [at for at, _ in found] for point, found in self._events.items()}
        self._points = sorted(self._events)

    def in_place(self, point: bytes, offset: int) -> list[Mount]:
        """The mounts made at point up to offset and not taken back since (an unmount takes back all there)."""
        found = self._events.get(point, [])
        mounted: list[Mount] = []
        for _, mount in found[: bisect.bisect_right(self._offsets.get(point, []), offset)]:
            mounted = [] if mount is None else [*mounted, mount]
        return mounted

    def points_inside(self, directory: bytes) -> list[bytes]:
        """The points where the script mounts or unmounts something, under directory (itself included)."""
        return [self._points[index] for index in _inside(self._points, directory)]


@dataclass(frozen=True)
class MountTableAt:
    """The system's mounts, then the script's in place at offset: what `find` and `below` see there."""

    system: MountTable
    script: ScriptMounts
    offset: int

    def find(self, path: bytes) -> Mount | None:
        for directory in _directories_holding(path):
            system = self.system._by_point.get(directory)
            candidates = ([] if system is None else [system]) + self.script.in_place(directory, self.offset)
            if candidates:
                return _on_top(candidates)[directory]  # the script's come later: on top on ties
        return None

    def below(self, directory: bytes) -> list[Mount]:
        made = [m for point in self.script.points_inside(directory) for m in self.script.in_place(point, self.offset)]
        return self.system.below(directory) + [m for m in made if m.point != directory]


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
    table: MountTable | MountTableAt,
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


def _directory(point: bytes) -> bytes:
    """A mount point as the directory it names: `/mnt/x/` is `/mnt/x` (`is_under` reads it so)."""
    return point.rstrip(b"/") or b"/"


def _on_top(mounts: Iterable[Mount]) -> dict[bytes, Mount]:
    """By directory, the mount `find` picks there: the longest point as written, the last on ties."""
    top: dict[bytes, Mount] = {}
    for mount in mounts:
        directory = _directory(mount.point)
        other = top.get(directory)
        if other is None or len(mount.point) >= len(other.point):
            top[directory] = mount
    return top


def _directories_holding(path: bytes) -> Iterator[bytes]:
    """The absolute path and each directory above it, the longest first: the mount points it may lie on."""
    if not path.startswith(b"/"):
        return
    path = path.rstrip(b"/") or b"/"
    while path != b"/":
        yield path
        path = path.rpartition(b"/")[0] or b"/"
    yield b"/"


def _inside(keys: list[bytes], directory: bytes) -> list[int]:
    """The indexes of the sorted directories that are directory or lie under it."""
    if directory == b"/":
        return [index for index, key in enumerate(keys) if key.startswith(b"/")]
    directory = directory.rstrip(b"/")
    found = []
    # Sorted, the directories that begin with its bytes are together (`/mnt/x`, `/mnt/x-old`, `/mnt/x/a`).
    for index in range(bisect.bisect_left(keys, directory), len(keys)):
        if not keys[index].startswith(directory):
            break
        if keys[index] == directory or keys[index].startswith(directory + b"/"):
            found.append(index)
    return found
