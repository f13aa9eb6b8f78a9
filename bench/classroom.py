"""One submission graded as GitHub Classroom grades it, as ratios to a bare `import jax.numpy`,
measured in one run.

    python bench/classroom.py [--runs N]

Each run is a fresh `jacpuzzles grade --github-classroom SUB` process on the reference answers
(the whole catalog), as the template's grading step runs it on a fresh runner (without
TensorFlow: `JACPUZZLES_TF=off`), interleaved with
the bare start-up so that a burst of load on the machine hits every command alike; the medians
are reported. Caches, as a CI runner has them:

- "cold": nothing cached (the first run of a repository, or the template without its cache step);
- "JAX cache": the template's `actions/cache` step restored JAX's compilation cache
  (`JAX_COMPILATION_CACHE_DIR`, filled by an earlier run), and nothing else: the expected
  Jacobians are computed afresh on every run (never cached in CI), only their compilation is
  saved;
- "all cached": the expected Jacobians too (`JACPUZZLES_CACHE` filled by an earlier run): what a
  second local run costs, for comparison; the templates never keep these.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BARE = [sys.executable, "-c", "import jax.numpy"]
# JAX's own settings, as the template's grading step sets them.
# TensorFlow is not installed on a runner (jacpuzzles does not require it): its recorded results.
NO_TF = {"JACPUZZLES_TF": "off"}
JAX_CACHE = {"JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS": "0", "JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES": "0"}


def _time(argv: list[str], env: dict[str, str]) -> float:
    inherited = {k: v for k, v in os.environ.items() if not k.startswith(("JAX_", "JACPUZZLES_", "GITHUB_"))}
    start = time.perf_counter()
    done = subprocess.run(
        argv, cwd=REPO, env={**inherited, **env}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory(prefix="jacpuzzles-bench-classroom-") as tmp:
        root = Path(tmp)
        sub = root / "student-repo"
        shutil.copytree(REPO / "solutions", sub, ignore=shutil.ignore_patterns("__pycache__"))
        grade = [sys.executable, "-m", "checker", "grade", "--github-classroom", str(sub)]
        output = {"GITHUB_OUTPUT": str(root / "github_output"), "PYTHONPATH": str(REPO), **NO_TF}
        xla, values = root / "jax-cache", root / "expected"
        filled = {**output, **JAX_CACHE, "JAX_COMPILATION_CACHE_DIR": str(xla), "JACPUZZLES_CACHE": str(values)}
        _time(grade, filled)  # an earlier run: fills both caches

        def fresh() -> str:
            return tempfile.mkdtemp(prefix="expected-", dir=root)

        commands = {
            "bare: python -c 'import jax.numpy'": lambda: (BARE, {}),
            "grade --github-classroom (cold)": lambda: (grade, {**output, "JACPUZZLES_CACHE": fresh()}),
            "grade --github-classroom (JAX cache: the templates')": lambda: (
                grade, {**output, **JAX_CACHE, "JAX_COMPILATION_CACHE_DIR": str(xla), "JACPUZZLES_CACHE": fresh()}),
            "grade --github-classroom (all cached, local re-run)": lambda: (grade, filled),
        }
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(runs):
            for name, make in commands.items():
                argv, env = make()
                times[name].append(_time(argv, env))
    bare = statistics.median(times[next(iter(commands))])
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores, {runs} runs each, median seconds; the reference "
        "answers, 46 puzzles"
    )
    print(f"{'command':56} {'median s':>9} {'min s':>7} {'x bare':>7}")
    for name, values_ in times.items():
        print(
            f"{name:56} {statistics.median(values_):9.2f} {min(values_):7.2f} {statistics.median(values_) / bare:7.2f}"
        )


if __name__ == "__main__":
    main()
