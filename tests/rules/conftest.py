"""Fixtures the rule tests share."""

from __future__ import annotations

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
