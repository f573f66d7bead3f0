"""Fixtures for the splicecat tests: the binaries, the data files, a runner.

Every test that takes the `sc` fixture runs twice: against the plain build
(`plain`: $SPLICECAT, else `splicecat` on PATH, else a fresh cmake build)
and against a build with AddressSanitizer + UndefinedBehaviorSanitizer
(`asan`), whose stderr must hold no sanitizer report.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from sc_helpers import BIG_SIZE, MiB, Splicecat, gnu, sha
from splicecat_binary import cmake_build, find_or_build


@pytest.fixture(scope="session")
def plain_binary(tmp_path_factory) -> Path:
    return find_or_build(tmp_path_factory.mktemp("build-plain"))


@pytest.fixture(scope="session")
def asan_binary(tmp_path_factory) -> Path:
    build = tmp_path_factory.mktemp("build-asan")
    # Skip only if the toolchain cannot sanitize at all; a failing build of
    # splicecat itself is a test failure.
    if not shutil.which("cmake"):
        pytest.skip("cmake is not on PATH: no sanitized build")
    probe = build / "probe.c"
    probe.write_text("int main(void) { return 0; }\n")
    cc = os.environ.get("CC", "cc")
    try:
        check = subprocess.run([cc, "-fsanitize=address,undefined", str(probe), "-o", str(build / "probe")],
                               capture_output=True, text=True)
    except FileNotFoundError:
        pytest.skip(f"no C compiler {cc!r}: no sanitized build")
    if check.returncode != 0:
        pytest.skip(f"{cc} cannot build with -fsanitize=address,undefined (libasan/libubsan missing?): "
                    f"{check.stderr.strip()[-200:]}")
    return cmake_build(build / "build", "-DSPLICECAT_SANITIZE=ON")


@pytest.fixture(params=["plain", "asan"])
def sc(request) -> Splicecat:
    binary = request.getfixturevalue(f"{request.param}_binary")
    return Splicecat(binary, request.param)


@pytest.fixture(scope="session")
def data_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("data")


@pytest.fixture(scope="session")
def big(data_dir) -> Path:
    """64 MiB of random bytes: 64 splices of 1 MiB, several pipe refills."""
    path = data_dir / "big"
    with open(path, "wb") as f:
        for _ in range(BIG_SIZE // (8 * MiB)):
            f.write(os.urandom(8 * MiB))
    return path


@pytest.fixture(scope="session")
def medium(data_dir) -> Path:
    """8 MiB plus 12345 bytes: an odd size, small enough to run under strace."""
    path = data_dir / "medium"
    path.write_bytes(os.urandom(8 * MiB + 12345))
    return path


@pytest.fixture(scope="session")
def big_sha(big) -> str:
    return sha(gnu("cat", big).stdout)


@pytest.fixture(scope="session")
def strace(tmp_path_factory) -> str:
    """strace's path, if it is there and ptrace is allowed."""
    path = shutil.which("strace")
    if not path:
        pytest.skip("strace is not installed")
    if subprocess.run([path, "-o", "/dev/null", "true"], capture_output=True).returncode != 0:
        pytest.skip("strace cannot trace here (ptrace not permitted)")
    return path
