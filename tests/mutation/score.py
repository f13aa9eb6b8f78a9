"""The mutation score of the checker: `python3 -m tests.mutation.score [--seeds 0,1,2] [--puzzles a,b] [--operators core|precision|a,b] [--jobs N]`.

For each puzzle: generate the mutants of its reference answer, keep those `prove_wrong` finds a
witness for (proven wrong), and check each of those with `checker.check_file` on every seed. A
mutant is killed when no seed passes it; a survivor passes on at least one seed. Prints per
puzzle and in total: generated, proven wrong, killed on every seed, survivors (id, the seeds it
passed, the witness), and the score = killed / proven wrong. Exit status 1 when anything
survives (or when the reference answer itself is flagged, a bug here or in the checker).
"""  # noqa: E501 - its first line, a usage line, is the --help description (`__doc__.splitlines()[0]`)

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

from checker.authoring import mutation as M


@dataclasses.dataclass(frozen=True)
class Survivor:
    id: str
    detail: str
    passed_seeds: tuple[int, ...]
    witness: str


@dataclasses.dataclass
class PuzzleScore:
    puzzle: str
    generated: int = 0
    proven: int = 0
    killed: int = 0
    survivors: list[Survivor] = dataclasses.field(default_factory=list)
    proven_ids: list[str] = dataclasses.field(default_factory=list)
    problems: list[str] = dataclasses.field(default_factory=list)  # the reference flagged, or the checker crashed
    seconds: float = 0.0
    prove_seconds: float = 0.0  # generating and proving; the rest is checking


@dataclasses.dataclass
class Score:
    puzzles: list[PuzzleScore]
    seeds: tuple[int, ...]
    seconds: float

    @property
    def generated(self) -> int:
        return sum(p.generated for p in self.puzzles)

    @property
    def proven(self) -> int:
        return sum(p.proven for p in self.puzzles)

    @property
    def killed(self) -> int:
        return sum(p.killed for p in self.puzzles)

    @property
    def survivors(self) -> list[Survivor]:
        return [s for p in self.puzzles for s in p.survivors]

    @property
    def problems(self) -> list[str]:
        return [f"{p.puzzle}: {msg}" for p in self.puzzles for msg in p.problems]

    @property
    def ratio(self) -> float:
        return self.killed / self.proven if self.proven else 1.0


def score_puzzle(name: str, seeds: Sequence[int], operators: Sequence[str] | None = None) -> PuzzleScore:
    """Generate, prove and check the mutants of one puzzle (by `operators`: all by default)."""
    import checker
    from checker import Status

    start = time.perf_counter()
    result = PuzzleScore(name)
    reference = M.reference_path(name)
    for seed in seeds:  # also computes (and caches) the expected Jacobians of this puzzle and seed
        try:
            verdict = checker.check_file(name, reference, seed=seed)
            if verdict.status is not Status.PASS:
                result.problems.append(
                    f"the reference answer gets {verdict.status.name} on seed {seed}: {verdict.message}"
                )
        except Exception as exc:  # noqa: BLE001 - a checker mid-rewrite may crash; report it
            result.problems.append(f"check_file crashed on the reference, seed {seed}: {type(exc).__name__}: {exc}")
    proving = time.perf_counter()
    found = M.mutants(name, operators=operators)
    result.generated = len(found)
    with tempfile.TemporaryDirectory(prefix=f"mutants-{name}-") as tmp:
        paths = [M.write(mutant, Path(tmp) / str(k)) for k, mutant in enumerate(found)]
        # Whole-answer rewrites (finite differences) are big programs: proved one at a time.
        alone = [k for k, m in enumerate(found) if m.operator in M.WHOLE_ANSWER]
        grouped = [k for k in range(len(found)) if k not in alone]
        flagged, *proofs = M.prove_many(name, [reference, *(paths[k] for k in grouped)])
        witnesses: list[M.Witness | None] = [None] * len(found)
        for k, w in zip(grouped + alone, proofs + M.prove_many(name, [paths[k] for k in alone], group_size=2)):
            witnesses[k] = w
        if flagged is not None:
            result.problems.append(f"prove_wrong flags the reference answer: {flagged}")
        result.prove_seconds = time.perf_counter() - proving
        for mutant, path, witness in zip(found, paths, witnesses):
            if witness is None:
                continue  # right on every input tried: an equivalent mutant
            result.proven += 1
            result.proven_ids.append(mutant.id)
            passed = []
            for seed in seeds:
                try:
                    status = checker.check_file(name, path, seed=seed).status
                except Exception as exc:  # noqa: BLE001 - a checker mid-rewrite may crash; report it
                    result.problems.append(
                        f"check_file crashed on {mutant.id}, seed {seed}: {type(exc).__name__}: {exc}"
                    )
                    continue
                if status is Status.PASS:
                    passed.append(seed)
            if passed:
                result.survivors.append(Survivor(mutant.id, mutant.detail, tuple(passed), str(witness)))
            else:
                result.killed += 1
    result.seconds = time.perf_counter() - start
    return result


def run(
    puzzles: Sequence[str] | None = None, seeds: Sequence[int] = (0, 1, 2), jobs: int | None = None,
    operators: Sequence[str] | None = None,
) -> Score:
    """The mutation score over `puzzles` (all by default), `seeds` and `operators` (all by default)."""
    import checker

    names = list(puzzles) if puzzles else [p.name for p in checker.puzzles()]
    known = {p.name for p in checker.puzzles()}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"unknown puzzles: {', '.join(unknown)}")
    os.environ.setdefault("JACPUZZLES_CACHE", tempfile.mkdtemp(prefix="jacpuzzles-mutation-cache-"))
    jobs = jobs or min(2, os.cpu_count() or 1, len(names))
    start = time.perf_counter()
    # Biggest first, so that the last worker to finish is not the one holding a big puzzle.
    order = sorted(names, key=lambda n: -len(M.reference_path(n).read_text()))
    if jobs <= 1:
        results = {n: score_puzzle(n, tuple(seeds), operators) for n in order}
    else:
        with ProcessPoolExecutor(jobs, mp_context=get_context("spawn")) as pool:
            futures = {n: pool.submit(score_puzzle, n, tuple(seeds), operators) for n in order}
            results = {n: f.result() for n, f in futures.items()}
    return Score([results[n] for n in names], tuple(seeds), time.perf_counter() - start)


def report(score: Score) -> str:
    lines = [
        f"{'puzzle':36s} {'generated':>9s} {'proven':>7s} {'killed':>7s} {'survive':>7s} {'secs':>6s} {'(prove)':>7s}"
    ]
    for p in score.puzzles:
        lines.append(
            f"{p.puzzle:36s} {p.generated:9d} {p.proven:7d} {p.killed:7d} {len(p.survivors):7d} {p.seconds:6.1f} "
            f"{p.prove_seconds:7.1f}"
        )
    lines.append(
        f"{'total':36s} {score.generated:9d} {score.proven:7d} {score.killed:7d} {len(score.survivors):7d} "
        f"{score.seconds:6.1f}"
    )
    seeds = ",".join(map(str, score.seeds))
    lines.append(
        f"mutation score (killed on every seed {seeds} / proven wrong): {score.killed}/{score.proven} = "
        f"{100 * score.ratio:.1f}%"
    )
    if score.survivors:
        lines.append("survivors:")
        for s in score.survivors:
            lines.append(f"  {s.id}  passed on seeds {','.join(map(str, s.passed_seeds))}  ({s.detail})")
            lines.append(f"      witness: {s.witness}")
    if score.problems:
        lines.append("problems:")
        lines.extend(f"  {msg}" for msg in score.problems)
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m tests.mutation.score", description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="0,1,2", help="comma-separated checker seeds (default 0,1,2)")
    parser.add_argument("--puzzles", default="", help="comma-separated puzzle names (default: all)")
    parser.add_argument("--jobs", type=int, default=0, help="worker processes (default: up to 2)")
    parser.add_argument("--operators", default="", help="comma-separated operator names, or `core` or `precision` "
                                                        "(default: all)")
    ns = parser.parse_args(argv)
    seeds = tuple(int(s) for s in ns.seeds.split(",") if s.strip())
    puzzles = [p.strip() for p in ns.puzzles.split(",") if p.strip()] or None
    named = {"core": M.CORE, "precision": M.PRECISION}
    operators = [o for part in ns.operators.split(",") if part.strip()
                 for o in named.get(part.strip(), (part.strip(),))] or None
    score = run(puzzles, seeds, ns.jobs or None, operators)
    print(report(score))
    return 1 if score.survivors or score.problems else 0


if __name__ == "__main__":
    sys.exit(main())
