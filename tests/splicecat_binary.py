"""The one way tests find a real splicecat: $SPLICECAT, then PATH, then a cmake build of runtime/."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

RUNTIME = Path(__file__).resolve().parent.parent / "runtime"
STAND_IN = (Path(__file__).resolve().parent / "sandbox" / "bin").resolve()


def cmake_build(build_dir: Path, *options: str) -> Path:
    """Configure and build runtime/ into build_dir; return the executable."""
    for argv in (["cmake", "-S", str(RUNTIME), "-B", str(build_dir), *options], ["cmake", "--build", str(build_dir)]):
        step = subprocess.run(argv, capture_output=True, text=True, timeout=600)
        assert step.returncode == 0, f"{' '.join(argv)} failed:\n{step.stdout}{step.stderr}"
    return build_dir / "splicecat"


def installed() -> Path | None:
    """$SPLICECAT, or a splicecat on PATH that is not the behaviour tests' stand-in."""
    if os.environ.get("SPLICECAT"):
        return Path(os.environ["SPLICECAT"])
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        candidate = Path(directory or ".") / "splicecat"
        if candidate.is_file() and os.access(candidate, os.X_OK) and candidate.resolve().parent != STAND_IN:
            return candidate
    return None


def find_or_build(build_dir: Path) -> Path:
    found = installed()
    if found is not None:
        return found
    if shutil.which("cmake") is None:
        raise RuntimeError("no splicecat on PATH and no cmake to build runtime/")
    return cmake_build(build_dir)
