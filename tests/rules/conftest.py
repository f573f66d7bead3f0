"""Fixtures the rule tests share."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from splicecat_binary import find_or_build


@pytest.fixture(scope="session")
def real_splicecat(tmp_path_factory) -> tuple[Path, ...]:
    """extra_path for the harness: the real splicecat first on PATH, ahead of the stand-in."""
    try:
        binary = find_or_build(tmp_path_factory.mktemp("splicecat-build"))
    except RuntimeError as error:
        pytest.skip(f"no real splicecat: {error}")
    return (binary.parent,)


@pytest.fixture(scope="session")
def en_us_locale(tmp_path_factory):
    """glibc's en_US.UTF-8, compiled into a temporary LOCPATH (the sandbox has only C and C.UTF-8)."""
    if shutil.which("localedef") is None:
        pytest.skip("localedef is not installed")
    where = tmp_path_factory.mktemp("locales")
    done = subprocess.run(
        ["localedef", "-i", "en_US", "-f", "UTF-8", str(where / "en_US.UTF-8")], capture_output=True, timeout=120
    )
    if not (where / "en_US.UTF-8").is_dir():
        pytest.skip(f"cannot build en_US.UTF-8: {done.stderr.decode(errors='replace')}")
    return where
