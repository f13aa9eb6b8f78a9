"""Checking many answers in one process, as the test suite and a class's checks do: every corpus
answer of some puzzles, on a warm cache, as a ratio to another checkout under the same load.

    python bench/answers.py [--runs N] [--puzzles NAME ...] [--against REPO]

The default puzzles have draws with two entries a subnormal distance apart, where an answer
that compares floats runs those draws op by op (`checker.engine._runner._op_by_op`): what that
costs shows here, and little in a single learner's check (`bench/bench.py`). Each run is a fresh
process per checkout, interleaved, so that a burst of load hits both alike; medians reported.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PUZZLES = ["relu", "sort", "max_pool", "softmax", "layer_norm", "gelu", "naive_lookup", "scatter_update"]
# Run inside each checkout: the seconds it takes to check every corpus answer of the puzzles.
SCRIPT = """
import sys, time
from pathlib import Path
from checker.engine._catalog import puzzle_named
from checker.engine._engine import check_files
files = [(puzzle_named(name), path) for name in sys.argv[1:]
         for path in sorted(Path("tests/corpus").glob(f"*/{name}/*.py"))]
check_files(files[:1], seed=0)  # start-up out of the measure
start = time.perf_counter()
for item in files:
    check_files([item], seed=0)
print(len(files), time.perf_counter() - start)
"""


def _run(repo: Path, cache: str, puzzles: list[str]) -> tuple[int, float]:
    env = {**os.environ, "JACPUZZLES_CACHE": cache}
    done = subprocess.run([sys.executable, "-c", SCRIPT, *puzzles], cwd=repo, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{repo}: failed ({done.returncode}):\n{done.stderr[-3000:]}")
    count, seconds = done.stdout.split()
    return int(count), float(seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--puzzles", nargs="*", default=PUZZLES)
    parser.add_argument("--against", type=Path, default=None)
    options = parser.parse_args()
    repos = {REPO.name: REPO} | ({options.against.name: options.against.resolve()} if options.against else {})
    caches = {name: tempfile.mkdtemp(prefix="jacpuzzles-bench-answers-") for name in repos}
    for name, repo in repos.items():  # the warm caches
        _run(repo, caches[name], options.puzzles)
    times: dict[str, list[float]] = {name: [] for name in repos}
    counts: dict[str, int] = {}
    for _ in range(options.runs):
        for name, repo in repos.items():
            counts[name], seconds = _run(repo, caches[name], options.puzzles)
            times[name].append(seconds)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, {options.runs} runs each, median seconds")
    first = statistics.median(times[REPO.name])
    for name, values in times.items():
        ratio = statistics.median(values) / first
        print(f"{name:30} {counts[name]:4d} answers {statistics.median(values):8.2f} s  {ratio:5.2f}x this checkout")


if __name__ == "__main__":
    main()
