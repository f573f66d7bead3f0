"""`trace-file`: the configuration key that points editors at a trace."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelint.engine.config import ConfigError, load


def test_trace_file_is_relative_to_the_config_file(tmp_path: Path):
    (tmp_path / ".pipelint.toml").write_text('trace-file = "out/trace.json"\n')
    assert load(tmp_path / ".pipelint.toml").trace_file == tmp_path.resolve() / "out" / "trace.json"
    (tmp_path / "pyproject.toml").write_text('[tool.pipelint]\ntrace-file = "/var/tmp/t.json"\n')
    assert load(tmp_path / "pyproject.toml").trace_file == Path("/var/tmp/t.json")


@pytest.mark.parametrize("value", ["1", '""', "[]"])
def test_a_trace_file_must_be_a_file_name(tmp_path: Path, value: str):
    (tmp_path / ".pipelint.toml").write_text(f"trace-file = {value}\n")
    with pytest.raises(ConfigError, match=r"\.pipelint\.toml: trace-file: must be a file name"):
        load(tmp_path / ".pipelint.toml")
