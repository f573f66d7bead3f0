"""Sizes as people write them (`8MiB`, `500K`) and as pipelint says them: `max-file-size`, `--max-file-size`.

A module of its own so that the command line can state the default in its
help without importing the settings (`pipelint --version` imports neither).
"""

from __future__ import annotations

import re

# Scripts larger than this are not read: see docs/ci.md ("Large files") for the
# measurement behind the number. 0 in the config or on the command line: no limit.
DEFAULT_MAX_FILE_SIZE = 8 * 1024 * 1024

_SIZE = re.compile(r"\s*(\d+)\s*(b|k|kib|kb|m|mib|mb|g|gib|gb)?\s*", re.IGNORECASE)
_UNITS = {"b": 1, "k": 1024, "kib": 1024, "kb": 1000, "m": 1024**2, "mib": 1024**2, "mb": 1000**2}
_UNITS |= {"g": 1024**3, "gib": 1024**3, "gb": 1000**3}


def parse_size(value: str | int) -> int | None:
    """Bytes from `8MiB`, `500K`, `10MB` or an integer; 0 means no limit (None). ValueError if unreadable."""
    if isinstance(value, bool):
        raise ValueError("must be a size such as 8MiB, 500KiB or a number of bytes")
    if isinstance(value, int):
        count = value
    else:
        match = _SIZE.fullmatch(value)
        if match is None:
            raise ValueError("must be a size such as 8MiB, 500KiB or a number of bytes")
        count = int(match.group(1)) * _UNITS[(match.group(2) or "b").lower()]
    if count < 0:
        raise ValueError("must not be negative")
    return count or None


def format_size(size: int) -> str:
    for unit, factor in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if size >= factor and size % factor == 0:
            return f"{size // factor} {unit}"
    return f"{size} bytes"
