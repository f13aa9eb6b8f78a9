"""What copying earns under per-student variants, computed exactly (no class to simulate).

    PYTHONPATH=$PWD python3 bench/copy_odds.py [--only NAME ...]

A student gets one of a puzzle's non-canonical variants, drawn uniformly (checker/engine/_variants.py).
For each puzzle this prints the expected fraction of full marks of a student who hands in
  (b) a random classmate's correct answer: P(same variant) + P(other variant, and the
      classmate's answer passes on the student's variant);
  (c) the published (canonical) answer in solutions/: the share of non-canonical variants on
      which it passes;
and the points-weighted figures over the whole catalog (a puzzle without parameters counts as
copied in full). "Passes" is the real checker (`check_answer`, seed 0, with `variant=`) run on
the reference answers kept with the tests (tests/variants/, filled in with `_variants.fill`),
each loaded below its own variant's header as the classmate's file has it. To keep the bench
to a few minutes, a copied answer is first compared with the student's own reference answer on
a few of the student's draws: one that is far off there (10^-2, far beyond the checker's
tolerance) fails without the full check; every other pair gets the full check.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import numpy as np  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from checker.engine import _catalog, _sampling, _stubs, _variants  # noqa: E402
from checker.engine._catalog import Puzzle  # noqa: E402
from checker.engine._engine import check_answer  # noqa: E402

TEMPLATES = REPO / "tests" / "variants"
SOLUTIONS = REPO / "solutions"


def _load(puzzle: Puzzle, answer: str) -> Callable[..., Any] | None:
    """`jac` (or `vjp`) of `answer` below `puzzle`'s header; None when the file does not load."""
    namespace: dict[str, Any] = {"__name__": f"copied_{puzzle.name}"}
    try:
        exec(compile(_stubs.header(puzzle) + _stubs.MARKER + "\n" + answer, f"<{puzzle.name}>", "exec"), namespace)
    except Exception:  # noqa: BLE001 - an answer's module may raise anything: it does not load
        return None
    found = namespace.get(puzzle.answer_name)
    return found if callable(found) else None


# Draws a copied answer is first tried on, before the full check.
_QUICK = 3


_INPUTS: dict[tuple[str, Any], list[list[Any]]] = {}


def _inputs(target: Puzzle) -> list[list[Any]]:
    """The first draws of `target` as an answer receives them (drawing them takes a while: kept)."""
    import jax

    key = (target.name, target.variant)
    if key not in _INPUTS:
        _INPUTS[key] = [
            [a.static if a.static is not None else jax.numpy.asarray(v) for a, v in zip(target.args, draw.values)]
            for draw in _sampling.draws(target, 0)[:_QUICK]
        ]
    return _INPUTS[key]


def _outputs(jac: Callable[..., Any], target: Puzzle) -> list[np.ndarray] | None:
    """`jac`'s blocks on the first draws of `target`, as float64 arrays; None when it fails."""
    import jax

    blocks = []
    try:
        for args in _inputs(target):
            blocks += [np.asarray(leaf, dtype=np.float64) for leaf in jax.tree_util.tree_leaves(jac(*args))]
    except Exception:  # noqa: BLE001 - an answer's jac may raise anything: no blocks
        return None
    return blocks


def _far_off(got: list[np.ndarray] | None, wanted: list[np.ndarray] | None) -> bool:
    """Whether `got` is surely wrong where `wanted` (the target's own reference) is right."""
    if got is None or wanted is None:
        return False  # undecided: the full check says
    if len(got) != len(wanted) or any(g.shape != w.shape for g, w in zip(got, wanted)):
        return True
    return not all(np.allclose(g, w, rtol=1e-2, atol=1e-2, equal_nan=True) for g, w in zip(got, wanted))


def _passes(jac: Callable[..., Any] | None, target: Puzzle, own: list[np.ndarray] | None = None) -> bool:
    if jac is None:
        return False
    if own is not None and _far_off(_outputs(jac, target), own):
        return False
    try:
        return bool(check_answer(target.name, jac, seed=0, variant=dict(target.variant)).passed)
    except Exception:  # noqa: BLE001 - a copied answer that breaks the check does not pass
        return False


def odds(base: Puzzle) -> tuple[int, float, float]:
    """(non-canonical variants, (b), (c)) for one puzzle."""
    every = _variants.variants(base)
    others = every[1:]
    canonical_answer = _stubs.answer_part((SOLUTIONS / _stubs.relative_path(base)).read_text())
    if not others:
        return 0, 1.0, 1.0
    template = (TEMPLATES / base.chapter / f"{base.name}.py").read_text()
    copied = [_load(v, _variants.fill(v, template)) for v in others]
    own = [_outputs(jac, v) if jac is not None else None for jac, v in zip(copied, others)]
    m = len(others)
    passing = m  # the diagonal: a classmate on the same variant (its reference answer passes, tests pin it)
    for i, source in enumerate(copied):
        for j, target in enumerate(others):
            if i != j:
                passing += _passes(source, target, own[j])
    published = _load(base, canonical_answer)
    canon = sum(_passes(published, target, own[j]) for j, target in enumerate(others))
    return m, passing / (m * m), canon / m


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="these puzzles only")
    options = parser.parse_args()
    console = Console()
    table = Table(
        "puzzle", "points", "variants", "(b) classmate", "(c) published", title="What copying earns, per puzzle"
    )
    start = time.perf_counter()
    total = b_points = c_points = 0.0
    for puzzle in _catalog.puzzles():
        if options.only and puzzle.name not in options.only:
            continue
        m, b, c = odds(puzzle)
        total += puzzle.points
        b_points += b * puzzle.points
        c_points += c * puzzle.points
        table.add_row(puzzle.name, str(puzzle.points), str(m), f"{b:.0%}", f"{c:.0%}")
    console.print(table)
    console.print(f"(b) a classmate's answers: [bold]{b_points / total:.1%}[/] of full marks (points-weighted)")
    console.print(f"(c) the published answers: [bold]{c_points / total:.1%}[/] of full marks (points-weighted)")
    console.print(f"[dim]{time.perf_counter() - start:.0f} s[/]")


if __name__ == "__main__":
    main()
