"""A class graded with variants on: does a grade mean the student solved their own puzzle?

    python bench/variants.py [--students 30] [--puzzles all|N|name,name] [--jobs 2]

A class of `--students` students (ids s01, s02...; the submissions are named `student-01`...
and the assignment's roster maps them to the ids), with variants on, hands in three times,
each graded as one class run of `jacpuzzles grade --assignment` (into a fresh OUT):

- (a) own: each student's own variant's reference answers (the templates of tests/variants/,
  filled in with `_variants.fill`; a puzzle without parameters: solutions/);
- (b) classmate: each student hands in the next student's own answers (s01 those of s02...);
- (c) published: every student hands in solutions/ (the canonical reference answers).

Printed: the mean score of each as a percentage of full marks (goals: (a) 100%, (b) and (c) at
most 20%), and the share of copied puzzles whose source the integrity report names (goal: at
least 90%): for (b), the pair (copier, source) lists the puzzle; for (c), the copier's answer is
listed as fitting the published puzzle. A copied puzzle without parameters, or whose variant is
the same for both students, cannot be told from the student's own work; both are counted (and
shown apart).
"""

from __future__ import annotations

import argparse
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

from checker.engine import _catalog, _stubs, _variants  # noqa: E402

SEED = 4021
TEMPLATES = REPO / "tests" / "variants"


def _answer(puzzle: _catalog.Puzzle, student: str) -> str:
    """The reference answer file of `student`'s variant of `puzzle`."""
    concrete = _variants.assigned(SEED, student, puzzle)
    if not concrete.variant:
        return (REPO / "solutions" / _stubs.relative_path(puzzle)).read_text()
    body = _variants.fill(concrete, (TEMPLATES / puzzle.chapter / f"{puzzle.name}.py").read_text())
    return _stubs.header(concrete) + _stubs.MARKER + "\n" + body


def _hand_in(folder: Path, files: dict[str, str], puzzles: list[_catalog.Puzzle]) -> None:
    for puzzle in puzzles:
        path = folder / _stubs.relative_path(puzzle)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(files[puzzle.name])


def _grade(subs: Path, out: Path, assignment: Path, jobs: int) -> float:
    start = time.perf_counter()
    argv = [sys.executable, "-m", "checker", "grade", str(subs), "--out", str(out), "--assignment", str(assignment),
            "--jobs", str(jobs)]
    done = subprocess.run(
        argv, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True,
    )
    if done.returncode != 0:
        raise SystemExit(f"grading {subs.name} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return time.perf_counter() - start


def _mean_percent(out: Path, names: list[str]) -> float:
    docs = [json.loads((out / f"{n}.json").read_text()) for n in names]
    return 100 * sum(d["score"] or 0 for d in docs) / sum(d["max_score"] for d in docs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument(
        "--puzzles", default="all", help="all, a number (the first N of the catalog), or names separated by commas"
    )
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    every = list(_catalog.puzzles())
    if args.puzzles == "all":
        puzzles = every
    elif args.puzzles.isdigit():
        puzzles = every[: int(args.puzzles)]
    else:
        puzzles = [_catalog.puzzle_named(n) for n in args.puzzles.split(",")]
    ids = [f"s{k:02d}" for k in range(1, args.students + 1)]
    names = [f"student-{k:02d}" for k in range(1, args.students + 1)]
    own = {s: {p.name: _answer(p, s) for p in puzzles} for s in ids}
    source = {s: ids[(k + 1) % len(ids)] for k, s in enumerate(ids)}  # whose answers each hands in, in (b)
    published = {p.name: (REPO / "solutions" / _stubs.relative_path(p)).read_text() for p in puzzles}
    with tempfile.TemporaryDirectory(prefix="jacpuzzles-bench-variants-") as tmp:
        root = Path(tmp)
        assignment = root / "assignment.toml"
        assignment.write_text(
            f"seed = {SEED}\nvariants = true\n\n[puzzles]\n"
            + "".join(f"{p.name} = true\n" for p in puzzles)
            + "\n[students]\n"
            + "".join(f'"{n}" = "{s}"\n' for n, s in zip(names, ids))
        )
        scenarios = {
            "(a) own answers": lambda s: own[s],
            "(b) a classmate's answers": lambda s: own[source[s]],
            "(c) solutions/ (published)": lambda s: published,
        }
        results = {}
        for label, files in scenarios.items():
            subs = root / f"subs-{label[1]}"
            for name, student in zip(names, ids):
                _hand_in(subs / name, files(student), puzzles)
            out = root / f"out-{label[1]}"
            seconds = _grade(subs, out, assignment, args.jobs)
            report = json.loads((out / "integrity.json").read_text())
            statuses = {
                n: {r["puzzle"]: r["status"] for r in json.loads((out / f"{n}.json").read_text())["results"]}
                for n in names
            }
            results[label] = (_mean_percent(out, names), seconds, report, statuses)
            shutil.rmtree(subs)
        by_name = dict(zip(ids, names))
        print(
            f"class of {len(ids)} students, {len(puzzles)} puzzles ({sum(bool(p.params) for p in puzzles)} with "
            f"variants), seed {SEED}"
        )
        for label, (percent, seconds, _, _) in results.items():
            print(f"{label:30} mean score {percent:5.1f}% of full marks   (graded in {seconds:.0f} s)")
        # (b): the pair (copier, source) must list the puzzle.
        pairs: dict[tuple[str, str], set[str]] = {}
        for item in results["(b) a classmate's answers"][2][
            "fits_another_variant"
        ]:  # listed under the copier, with the variant's students
            for f in item["puzzles"]:
                for o in f["sources"]:
                    pairs.setdefault((item["submission"], o["submission"]), set()).add(f["puzzle"])
        copied = named = same_variant = fixed = general = 0
        statuses = results["(b) a classmate's answers"][3]
        for s in ids:
            for p in puzzles:
                copied += 1
                if not p.params:
                    fixed += 1
                elif _variants.choose(SEED, s, p) == _variants.choose(SEED, source[s], p):
                    same_variant += 1
                elif statuses[by_name[s]][p.name] == "pass":
                    general += 1  # the classmate's answer is right for this student's variant too
                elif p.name in pairs.get((by_name[s], by_name[source[s]]), set()):
                    named += 1
        told = copied - fixed - same_variant - general
        print(
            f"(b) copied puzzles: {copied}; source named for {named} ({100 * named / max(copied, 1):.1f}% of all "
            f"copied; {100 * named / max(told, 1):.1f}% of the "
            f"{told} that fail the copier's own variant); not detectable: {same_variant} share the source's variant, "
            f"{general} pass both variants "
            f"(the answer is general), {fixed} have no variants"
        )
        fits = {
            p["submission"]: {f["puzzle"] for f in p["puzzles"]}
            for p in results["(c) solutions/ (published)"][2]["fits_published_puzzle"]
        }
        listed = sum(p.name in fits.get(n, set()) for n in names for p in puzzles if p.params)
        with_params = len(names) * sum(bool(p.params) for p in puzzles)
        print(
            f"(c) copied puzzles with variants: {with_params}; named as fitting the published puzzle: {listed} "
            f"({100 * listed / max(with_params, 1):.1f}%); "
            f"{len(names) * sum(not p.params for p in puzzles)} without variants (the published answer is the "
            "student's own)"
        )


if __name__ == "__main__":
    main()
