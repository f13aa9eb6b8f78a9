"""TensorFlow's expected answers for many checks in one process, as the test suite and a class's
variants ask for them: the first variants of every puzzle TensorFlow covers, on seed 0, as a
ratio to another checkout under the same load.

    python bench/tf_oracle.py [--runs N] [--variants K] [--against REPO]

Each run is a fresh process per checkout, interleaved, so that a burst of load hits both alike;
TensorFlow's import is left out of the measure (one puzzle is computed first), its tracing is
not. Medians reported. Needs TensorFlow (the `tf` extra).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# Run inside each checkout: the draws computed and the seconds it took.
SCRIPT = """
import sys, time
from checker.engine import _catalog, _sampling, _tf_oracle, _variants
k = int(sys.argv[1])
work = [(p, _sampling.draws(p, 0)) for base in _catalog.puzzles() if _tf_oracle.covers(base)
        for p in _variants.variants(base)[:k]]
_tf_oracle.compute(_catalog.get("gather"), _sampling.draws(_catalog.get("gather"), 1))  # the import
start = time.perf_counter()
for puzzle, batch in work:
    _tf_oracle.compute(puzzle, batch)
print(sum(len(batch) for _, batch in work), time.perf_counter() - start)
"""


def _run(repo: Path, variants: int) -> tuple[int, float]:
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(variants)], cwd=repo, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{repo}: failed ({done.returncode}):\n{done.stderr[-3000:]}")
    count, seconds = done.stdout.split()[-2:]
    return int(count), float(seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--variants", type=int, default=3, help="variants per puzzle (default 3)")
    parser.add_argument("--against", type=Path, default=None)
    options = parser.parse_args()
    repos = {REPO.name: REPO} | ({options.against.name: options.against.resolve()} if options.against else {})
    times: dict[str, list[float]] = {name: [] for name in repos}
    counts: dict[str, int] = {}
    for _ in range(options.runs):
        for name, repo in repos.items():
            counts[name], seconds = _run(repo, options.variants)
            times[name].append(seconds)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, {options.runs} runs each, median seconds")
    first = statistics.median(times[REPO.name])
    for name, values in times.items():
        ratio = statistics.median(values) / first
        print(f"{name:30} {counts[name]:6d} draws {statistics.median(values):8.2f} s  {ratio:5.2f}x this checkout")


if __name__ == "__main__":
    main()
