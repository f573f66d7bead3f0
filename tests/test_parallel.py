"""--jobs: a folder linted by a pool of processes prints exactly what one process prints."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from cli_helpers import run_cli

from pipelint.output import FORMATS
from pipelint.cli.parallel import BATCH_SIZE, OrderedPool

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
# Enough text that the tree's lint is worth two workers (run.WORKERS_WORTH_MS): without it the run
# stays in one process, and these tests would compare one process with itself.
PADDING = b"# a comment line that makes the file long enough to be worth a worker\n" * 400


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    """The fixture scripts many times over, in nested folders, with files that cannot be linted among them."""
    root = tmp_path_factory.mktemp("tree")
    sources = sorted(path for path in FIXTURES.iterdir() if path.is_file())
    for index in range(60):
        source = sources[index % len(sources)]
        folder = root / f"part{index % 7}" / f"sub{index % 3}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{index:03d}-{source.name}").write_bytes(source.read_bytes() + f"\necho {index}\n".encode() + PADDING)
    (root / "part1" / "binary.sh").write_bytes(b"\0\1\2 not a script")
    (root / "part2" / "broken.sh").write_bytes(b"cat f | grep x\nif true; then\n  echo 'unterminated\n")
    (root / "part3" / "same.sh").symlink_to(root / "part1" / "sub1" / "001-deploy-report.bash")
    return root


def test_the_tree_is_worth_two_workers(tree):
    from pipelint.cli import run

    files = [path for path in tree.rglob("*.*") if path.is_file()]
    assert sum(run._lint_estimate(path) for path in files) > 1.5 * run.WORKERS_WORTH_MS


@pytest.mark.parametrize("output_format", sorted(FORMATS))
def test_two_jobs_print_what_one_job_prints(tree, output_format):
    runs = [
        run_cli("check", "--no-cache", "--jobs", jobs, "--output-format", output_format, "part0", "part1", ".", cwd=tree)
        for jobs in ("1", "2")
    ]
    one, two = runs
    assert one.returncode == two.returncode == 2  # the binary file is an error
    assert one.stdout  # findings were printed
    assert two.stdout == one.stdout
    assert two.stderr == one.stderr


@pytest.mark.parametrize("flags", [("--diff",), ("--fix", "--unsafe-fixes", "--show-fixes")])
def test_fixes_with_two_jobs_are_those_of_one(tree, tmp_path, flags):
    results = []
    for jobs in ("1", "2"):
        copy = tmp_path / f"jobs{jobs}"
        _copy_tree(tree, copy)
        result = run_cli("check", "--no-cache", "--jobs", jobs, *flags, ".", cwd=copy)
        files = {path.relative_to(copy): path.read_bytes() for path in sorted(copy.rglob("*.*")) if path.is_file()}
        results.append((result.returncode, result.stdout, result.stderr, files))
    assert results[0] == results[1]


def _copy_tree(source: Path, target: Path) -> None:
    for path in sorted(source.rglob("*")):
        destination = target / path.relative_to(source)
        if path.is_symlink():
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.symlink_to(target / Path(os.readlink(path)).relative_to(source))
        elif path.is_file():
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.write_bytes(path.read_bytes())


def test_jobs_must_be_positive(tmp_path):
    (tmp_path / "a.sh").write_text("echo hi\n")
    result = run_cli("check", "--jobs", "0", str(tmp_path))
    assert result.returncode == 2
    assert result.stderr.decode().startswith("pipelint: error: ")
    assert len(result.stderr.splitlines()) == 1


# The pool itself.


def _slow_square(number: int) -> int:
    time.sleep(0.05 if number % 2 else 0)  # odd jobs finish last: the order must not follow
    return number * number


def _own_batch(job: int) -> int:
    return BATCH_SIZE  # each job a batch of its own: spread over both workers


def test_results_come_back_in_submission_order():
    with OrderedPool(_slow_square, 2) as pool:
        results = list(pool.run(iter(range(20)), lambda number: number, _own_batch))
    assert results == [(number, number * number) for number in range(20)]


def test_jobs_travel_in_batches_and_come_back_in_order():
    with OrderedPool(_slow_square, 2) as pool:
        results = list(pool.run(iter(range(40)), lambda number: number, lambda job: BATCH_SIZE // 3))
    assert results == [(number, number * number) for number in range(40)]


def _fails_on_five(number: int) -> int:
    if number == 5:
        raise ValueError("five")
    return number


def test_an_exception_reaches_the_caller_at_its_own_job():
    """The jobs before it in its batch come back first, as if each had run alone."""
    taken = []
    with OrderedPool(_fails_on_five, 2) as pool, pytest.raises(ValueError, match="five"):
        for item, result in pool.run(iter(range(8)), lambda number: number):
            taken.append(result)
    assert taken == [0, 1, 2, 3, 4]


def test_items_without_a_job_pass_through_in_order():
    with OrderedPool(_slow_square, 2) as pool:
        results = list(pool.run(iter(range(6)), lambda number: number if number % 3 else None))
    assert results == [(0, None), (1, 1), (2, 4), (3, None), (4, 16), (5, 25)]


PARENT = os.getpid()


def _dies_in_a_worker(number: int) -> int:
    if number == 3 and os.getpid() != PARENT:
        os._exit(1)  # as the OOM killer would end it
    return number + 100


@pytest.mark.parametrize("size_of", [_own_batch, lambda job: 1], ids=["a batch per job", "one batch"])
def test_a_dead_worker_costs_nothing_but_time(size_of):
    with OrderedPool(_dies_in_a_worker, 2) as pool:
        results = list(pool.run(iter(range(8)), lambda number: number, size_of))
    assert results == [(number, number + 100) for number in range(8)]


WARMED = "PIPELINT_TEST_WARMED"


def _warm_up() -> None:
    os.environ[WARMED] = str(os.getpid())


def _warmed_in(number: int) -> tuple[int, str | None]:
    return number, os.environ.get(WARMED)


def test_started_workers_warm_up_before_their_first_job():
    """`start` forks every worker at once; each runs warm_up (the engine's imports) before any job."""
    with OrderedPool(_warmed_in, 2, warm_up=_warm_up) as pool:
        pool.start()
        results = list(pool.run(iter(range(8)), lambda number: number, _own_batch))
    assert [number for number, _ in results] == list(range(8))
    warmed = {result[1] for _, result in results}
    assert None not in warmed and str(PARENT) not in warmed  # in the workers, not here
    assert WARMED not in os.environ


def test_one_job_at_a_time_starts_no_worker():
    with OrderedPool(_warmed_in, 1, warm_up=_warm_up) as pool:
        pool.start()
        results = list(pool.run(iter(range(3)), lambda number: number))
    assert results == [(number, (number, None)) for number in range(3)]
