"""Mutants of a reference answer: one operator at one site each, as full answer files."""

from __future__ import annotations

import ast
import copy
import dataclasses
from collections.abc import Sequence
from pathlib import Path

from checker.authoring.mutation import _operators
from checker.authoring.mutation._probe import Wrap, numbered, probe
from checker.authoring.mutation._reference import puzzle_named, split_reference
from checker.engine._catalog import Puzzle


@dataclasses.dataclass(frozen=True)
class Mutant:
    id: str  # "<puzzle>:<operator>:<site>"
    puzzle: str
    operator: str
    site: int
    detail: str  # what changed, e.g. "line 7: x > 0  ->  x > 1e-06"
    source: str  # the full answer file


def mutants(puzzle: Puzzle | str, reference: str | None = None, operators: Sequence[str] | None = None) -> list[Mutant]:
    """Every mutant of the puzzle's reference answer (the kit's, or the file text `reference`:
    a pack's) by `operators` (names in `OPERATORS`; all of them by default), in the registry's
    order, deduplicated by source."""
    puzzle = puzzle_named(puzzle)
    chosen = [name for name in _operators.OPERATORS if operators is None or name in operators]
    unknown = sorted(set(operators or ()) - set(_operators.OPERATORS))
    if unknown:
        raise ValueError(f"unknown mutation operators: {', '.join(unknown)}")
    header, answer = split_reference(puzzle.name, reference)
    tree = ast.parse(answer)
    ctx = _operators.Context(puzzle, tree, probe(puzzle, header, tree))
    found = _operators.sites(ctx, chosen)
    original = header + "\n" + ast.unparse(tree) + "\n"
    seen = {original}
    result: list[Mutant] = []

    def keep(op: str, site: int, detail: str, body: str) -> None:
        source = header + "\n" + body
        try:
            ast.parse(source)
        except SyntaxError:
            return
        if source in seen:
            return
        seen.add(source)
        result.append(Mutant(f"{puzzle.name}:{op}:{site}", puzzle.name, op, site, detail, source))

    for name in chosen:
        operator = _operators.REGISTRY[name]
        if operator.whole is not None:
            for site, (detail, body) in enumerate(operator.whole(puzzle, ctx.answer_fn)):
                keep(name, site, detail, body)
            continue
        for site, (where, make, detail) in enumerate(found[name]):
            work = copy.deepcopy(tree)
            target = numbered(work)[where]
            try:
                work = ast.fix_missing_locations(Wrap({id(target): make}).visit(work))
                if operator.prelude:
                    work.body[:0] = ast.parse(operator.prelude).body
                body = ast.unparse(work) + "\n"
            except Exception:  # noqa: BLE001 - a transform that fails to rebuild is skipped
                continue
            keep(name, site, detail, body)
    return result


def write(mutant: Mutant, folder: Path) -> Path:
    """Write the mutant as `<folder>/<puzzle>.py`; returns the path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{mutant.puzzle}.py"
    path.write_text(mutant.source, encoding="utf-8")
    return path
