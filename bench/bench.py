"""Start-up and checking time, as ratios to a bare `import jax.numpy`, measured in one run.

    python bench/bench.py [--runs N] [--only WORD ...] [--against REPO]

`--only` keeps the commands whose name contains one of the words (the bare start-up always runs);
`--against` also runs every command in another checkout (its own `checker` and `solutions`),
interleaved with this one's, so that two versions are compared under the same load.

Each command runs N times in fresh processes, interleaved so that a burst of load on the machine
hits every command alike; the median is reported. "cold" means an empty cache of expected
Jacobians (the first check after installing, or after the catalog changed); "warm" means the
cache holds this seed's Jacobians (every later check). "TF live" runs with TensorFlow installed
(it is imported on a cold cache); "TF recorded" as if it were not (`JACPUZZLES_TF=off`). Goals,
as ratios to the bare start-up: one puzzle <= 1.6x on a warm cache (a learner's every check but
the first) and <= 15x on a cold one; the whole catalog <= 4x on a warm cache and <= 15x on a
cold one.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CHECK = [sys.executable, "-m", "checker", "check"]
OFF = {"JACPUZZLES_TF": "off"}  # TensorFlow counts as not installed: the recorded results
# name -> (command, cache kind, extra environment)
COMMANDS: dict[str, tuple[list[str], str, dict[str, str]]] = {
    "bare: python -c 'import jax.numpy'": ([sys.executable, "-c", "import jax.numpy"], "none", {}),
    "check cumsum (cold cache)": (CHECK + ["cumsum", "--dir", "solutions"], "cold", {}),
    "check cumsum (warm cache)": (CHECK + ["cumsum", "--dir", "solutions"], "warm", {}),
    "check attention (cold cache)": (CHECK + ["attention", "--dir", "solutions"], "cold", {}),
    "check attention (warm cache)": (CHECK + ["attention", "--dir", "solutions"], "warm", {}),
    "check linear_lookup (cold cache, TF live)": (CHECK + ["linear_lookup", "--dir", "solutions"], "cold", {}),
    "check linear_lookup (cold cache, TF recorded)": (CHECK + ["linear_lookup", "--dir", "solutions"], "cold", OFF),
    "check linear_lookup (warm cache, TF live)": (CHECK + ["linear_lookup", "--dir", "solutions"], "warm", {}),
    "check --dir solutions, whole catalog (cold cache, TF live)": (CHECK + ["--dir", "solutions"], "cold", {}),
    "check --dir solutions, whole catalog (cold cache, TF recorded)": (CHECK + ["--dir", "solutions"], "cold", OFF),
    "check --dir solutions, whole catalog (warm cache, TF live)": (CHECK + ["--dir", "solutions"], "warm", {}),
}
# (start of the command's name, cache kind) -> the most it may take, as a multiple of the bare start-up
GOALS = {
    **{(f"check {name}", "warm"): 1.6 for name in ("cumsum", "attention", "linear_lookup")},
    **{(f"check {name}", "cold"): 15.0 for name in ("cumsum", "attention", "linear_lookup")},
    ("check --dir solutions", "warm"): 4.0,
    ("check --dir solutions", "cold"): 15.0,
}


def _time(argv: list[str], cache: str, extra: dict[str, str], repo: Path = REPO) -> float:
    env = {**os.environ, "JACPUZZLES_CACHE": cache, **extra}
    # A learner's Python keeps compiled bytecode (pip compiles a wheel's at install): a shell that
    # forbids it would time the compiling of the kit's modules on every run.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=repo, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stderr}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--against", type=Path, default=None)
    options = parser.parse_args()
    runs = options.runs
    chosen = {
        n: c
        for k, (n, c) in enumerate(COMMANDS.items())
        if k == 0 or options.only is None or any(w in n for w in options.only)
    }
    repos = {"": REPO} | ({f" [{options.against.name}]": options.against.resolve()} if options.against else {})
    warm = {tag: tempfile.mkdtemp(prefix="jacpuzzles-bench-warm-") for tag in repos}
    if any(kind == "warm" for _, kind, _ in chosen.values()):
        for tag, repo in repos.items():  # fill the warm caches once
            _time(CHECK + ["--dir", "solutions"], warm[tag], {}, repo)
    times: dict[str, list[float]] = {
        name + (tag if k else ""): [] for k, name in enumerate(chosen) for tag in (repos if k else [""])
    }
    for _ in range(runs):
        for k, (name, (argv, kind, extra)) in enumerate(chosen.items()):
            for tag, repo in (repos.items() if k else [("", REPO)]):
                cache = warm[tag] if kind == "warm" else tempfile.mkdtemp(prefix="jacpuzzles-bench-cold-")
                times[name + tag].append(_time(argv, cache, extra, repo))
    bare = statistics.median(next(iter(times.values())))
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, {runs} runs each, median seconds")
    print(f"{'command':70} {'median s':>9} {'min s':>7} {'x bare':>7}  goal")
    for name, values in times.items():
        ratio = statistics.median(values) / bare
        goal = next((g for (prefix, kind), g in GOALS.items() if name.startswith(prefix) and f"({kind} cache" in name),
                    None)
        verdict = "" if goal is None else f"<= {goal:g}x {'met' if ratio <= goal else 'MISSED'}"
        print(f"{name:70} {statistics.median(values):9.2f} {min(values):7.2f} {ratio:7.2f}  {verdict}")


if __name__ == "__main__":
    main()
