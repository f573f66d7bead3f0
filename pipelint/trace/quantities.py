"""Seconds and bytes as every trace report writes them."""

from __future__ import annotations


def size(count: int) -> str:
    """Bytes as a person reads them: `12 B`, `1.0 KiB`, `256.0 MiB`."""
    value = float(count)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{count} B" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


def seconds(value: float) -> str:
    """`2.81 s`, `12 ms`, `0.4 ms`."""
    if value >= 1:
        return f"{value:.2f} s"
    if value >= 0.01:
        return f"{value * 1000:.0f} ms"
    return f"{value * 1000:.1f} ms"
