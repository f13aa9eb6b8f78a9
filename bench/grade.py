"""Class grading throughput: `jacpuzzles grade` against the naive loop, measured in one run.

    python bench/grade.py [--students N] [--jobs 2]

The naive loop is a fresh `jacpuzzles check --dir SUB --json` process per submission, `--jobs`
at a time. The grader is `jacpuzzles grade CLASS --out OUT --jobs J`, isolation on. Both
answer the whole catalog (46 puzzles) per submission, and both start with the expected
Jacobians already cached (a warm-up `check` fills the cache first, and its compilations too,
which only helps the naive loop).

Two classes of N students each:
- "copies": every student hands in the reference answers (the issue's yardstick). The naive
  loop's compilation cache then holds every answer after the warm-up; the grader never shares
  compilations between students, so it compiles each one afresh.
- "varied": student k hands in, for each puzzle, the k-th mutant of its reference answer
  (tests/mutation/), so no two students' programs are alike, as in a real class.

Prints seconds per submission for each, and the grader's speed-up over the naive loop.

    python bench/grade.py --against DIR [--rounds 2]

compares two versions of the grader instead, in one run: DIR is another checkout of the kit
(e.g. `git worktree add /tmp/unconfined 76ac9b5`: the grader without confinement, the "other"
of docs/performance.md). Each
class is graded by the other checkout and by this one in turn, `--rounds` times, and the mean
seconds per submission of each and their ratio are printed (this one over the other).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def _copies(folder: Path, students: int) -> None:
    for k in range(students):
        shutil.copytree(REPO / "solutions", folder / f"student{k:03d}", ignore=shutil.ignore_patterns("__pycache__"))


def _varied(folder: Path, students: int) -> None:
    from checker import puzzles
    from checker.authoring.mutation import mutants
    from checker.engine._stubs import relative_path

    per_puzzle = {p.name: (relative_path(p), mutants(p)) for p in puzzles()}
    for k in range(students):
        for rel, found in per_puzzle.values():
            target = folder / f"student{k:03d}" / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            if found:
                target.write_text(found[k % len(found)].source)
            else:
                shutil.copyfile(REPO / "solutions" / rel, target)


def _naive(folder: Path, jobs: int, env: dict[str, str]) -> float:
    subs = sorted(p for p in folder.iterdir() if p.is_dir())

    def one(sub: Path) -> None:
        argv = [sys.executable, "-m", "checker", "check", "--dir", str(sub), "--json"]
        subprocess.run(argv, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)

    start = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        list(pool.map(one, subs))
    return time.perf_counter() - start


def _grader(
    folder: Path, out: Path, jobs: int, env: dict[str, str], kit: Path = REPO, assignment: Path | None = None
) -> float:
    argv = [sys.executable, "-m", "checker", "grade", str(folder), "--out", str(out), "--jobs", str(jobs),
            *(["--assignment", str(assignment)] if assignment is not None else [])]
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    done = subprocess.run(
        argv, cwd=kit, env={**env, "PYTHONPATH": str(kit)}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"grade failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--against", type=Path, help="another checkout of the kit: compare its grader with this one's")
    parser.add_argument("--rounds", type=int, default=2, help="with --against: how many times each grades each class")
    args = parser.parse_args()
    if args.against is not None:
        _compare(args.against.resolve(), args.students, args.jobs, args.rounds)
        return
    with tempfile.TemporaryDirectory(prefix="jacpuzzles-bench-") as tmp:
        root = Path(tmp)
        env = {**os.environ, "JACPUZZLES_CACHE": str(root / "cache")}
        subprocess.run(
            [sys.executable, "-m", "checker", "check", "--dir", "solutions", "--json"],
            cwd=REPO,
            env=env,
            stdout=subprocess.DEVNULL,
            check=False,
        )
        print(f"{args.students} students, whole catalog each, {args.jobs} at a time, {os.cpu_count()} cores")
        print(f"{'class':<8} {'naive s/sub':>12} {'grade s/sub':>12} {'speed-up':>9}")
        for name, build in (("copies", _copies), ("varied", _varied)):
            folder = root / name
            folder.mkdir()
            build(folder, args.students)
            grade = _grader(folder, root / f"out-{name}", args.jobs, env)
            naive = _naive(folder, args.jobs, env)
            n = args.students
            print(f"{name:<8} {naive / n:>12.2f} {grade / n:>12.2f} {naive / grade:>8.1f}x")


def _compare(other: Path, students: int, jobs: int, rounds: int) -> None:
    """Grade each class with `other`'s grader and this one's in turn, `rounds` times each."""
    if not (other / "checker" / "grading" / "_grade.py").is_file():
        raise SystemExit(f"--against {other}: expected a checkout of the kit (with checker/grading/_grade.py); "
                         "make one with `git worktree add /tmp/before <commit>`")
    with tempfile.TemporaryDirectory(prefix="jacpuzzles-bench-") as tmp:
        root = Path(tmp)
        # Both grade the puzzles both kits have (a later kit may have more), with the same points.
        listing = "import json; from checker import puzzles; print(json.dumps([p.name for p in puzzles()]))"
        theirs = json.loads(
            subprocess.run(
                [sys.executable, "-c", listing],
                cwd=other,
                env={**os.environ, "PYTHONPATH": str(other)},
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        )
        from checker import puzzles

        common = [p.name for p in puzzles() if p.name in set(theirs)]
        assignment = root / "common.toml"
        assignment.write_text("[puzzles]\n" + "".join(f"{name} = 1\n" for name in common))
        print(
            f"{students} students, the {len(common)} puzzles both kits have, {jobs} at a time, {os.cpu_count()} cores, "
            f"{rounds} rounds"
        )
        print(f"{'class':<8} {'other s/sub':>12} {'this s/sub':>11} {'this/other':>11}")
        for name, build in (("copies", _copies), ("varied", _varied)):
            folder = root / name
            folder.mkdir()
            build(folder, students)
            times: dict[Path, list[float]] = {other: [], REPO: []}
            for kit in (other, REPO):  # each kit's expected Jacobians cached before it is timed
                env = {**os.environ, "JACPUZZLES_CACHE": str(root / f"cache-{kit.name}")}
                _grader(folder, root / "warm", jobs, env, kit, assignment)
            for _ in range(rounds):
                for kit in (other, REPO):
                    env = {**os.environ, "JACPUZZLES_CACHE": str(root / f"cache-{kit.name}")}
                    times[kit].append(_grader(folder, root / f"out-{kit.name}", jobs, env, kit, assignment) / students)
            before, after = (sum(times[k]) / rounds for k in (other, REPO))
            print(f"{name:<8} {before:>12.2f} {after:>11.2f} {after / before:>10.2f}x")


if __name__ == "__main__":
    main()
