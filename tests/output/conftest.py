"""Fixtures for the output-format tests."""

from __future__ import annotations

import pytest
from output_helpers import BAD, BROKEN, CLEAN


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A folder with a bad, a clean and an unparsable script, as the working directory."""
    (tmp_path / "bad.sh").write_bytes(BAD)
    (tmp_path / "clean.sh").write_bytes(CLEAN)
    (tmp_path / "broken.sh").write_bytes(BROKEN)
    monkeypatch.chdir(tmp_path)
    return tmp_path
