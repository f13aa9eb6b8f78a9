"""Hints that show code: the code runs as written where a learner pastes it.

A learner who reveals a hint sees it with every hint before it (`jacpuzzles hint`). Each
backtick span of a hint that is Python code is run in the puzzle's stub, as it stands above
`jac` (its imports, `np` being `jax.numpy`), inside `jac`, where f's arguments hold the values
of a draw; names that the puzzle's hints define in their own code (`Is = np.arange(10)`) are
defined first. A span that names something and nothing more (`x`, `lo`) is prose, not code to
run; an indexing suffix such as `[:, None]` is run on f's first argument. The final hint's
code must not need a name that no hint defines: pasting it must not raise `NameError`.
"""

from __future__ import annotations

import ast
import re
from typing import Any

import jax.numpy as jnp
import pytest

from checker.engine._catalog import Puzzle, puzzles
from checker.engine._sampling import draws
from checker.engine._stubs import stub

SPAN = re.compile(r"`([^`]+)`")


def _spans(hint: str) -> list[str]:
    """The backtick spans of a hint, outside LaTeX (`$...$` holds no code)."""
    return SPAN.findall(re.sub(r"\$[^$]*\$", "", hint))


def _code(span: str) -> ast.Module | None:
    """The span parsed as Python, or None when it is prose: not Python, or a bare name."""
    try:
        tree = ast.parse(span)
    except SyntaxError:
        return None
    if (
        len(tree.body) == 1
        and isinstance(tree.body[0], ast.Expr)
        and isinstance(tree.body[0].value, (ast.Name, ast.Attribute))
    ):
        return None  # `x`, `lo`, `np.floor`: a name in a sentence
    return tree


def _stub_namespace(puzzle: Puzzle) -> dict[str, Any]:
    """The stub's module globals above `jac` and f's arguments at a draw, as `jac` sees them."""
    source = stub(puzzle).split("# ---- your answer")[0]
    namespace: dict[str, Any] = {}
    exec(compile(source, f"{puzzle.name}.py", "exec"), namespace)
    draw = draws(puzzle, 0)[0]
    for arg, value in zip(puzzle.args, draw.values):
        namespace[arg.name] = arg.static if arg.static is not None else jnp.asarray(value)
    return namespace


def _run(span: str, namespace: dict[str, Any], first_arg: str) -> None:
    tree = _code(span)
    if tree is None:
        if span.startswith("[") and _code(f"{first_arg}{span}") is not None:
            exec(f"{first_arg}{span}", namespace)  # `[:, None]`: index an argument with it
        return
    exec(compile(tree, "<hint>", "exec"), namespace)


def _defining_first(spans: list[str]) -> list[str]:
    """Assignments before expressions, so that `Is == Os, with Is = ...` runs in any order."""
    def assigns(span: str) -> bool:
        tree = _code(span)
        return tree is not None and any(isinstance(node, ast.Assign) for node in tree.body)

    return [s for s in spans if assigns(s)] + [s for s in spans if not assigns(s)]


def _run_hints(puzzle: Puzzle, upto: int) -> None:
    """Run the code of hints 1..upto of `puzzle`, in one namespace, as `jacpuzzles hint` shows them."""
    namespace = _stub_namespace(puzzle)
    spans = [s for hint in puzzle.hints[:upto] for s in _spans(hint)]
    pending = _defining_first(spans)
    # An assignment may use a name another span defines later in the text: run what can run,
    # and again, until nothing more does.
    while pending:
        failed: list[tuple[str, Exception]] = []
        for span in pending:
            try:
                _run(span, namespace, puzzle.args[0].name)
            except NameError as exc:
                failed.append((span, exc))
        if len(failed) == len(pending):
            span, exc = failed[0]
            raise AssertionError(f"{puzzle.name}, hint {upto}: `{span}` does not run as written: {exc}")
        pending = [span for span, _ in failed]


WITH_CODE = [p for p in puzzles() if any(_code(s) for h in p.hints for s in _spans(h))]


@pytest.mark.parametrize("puzzle", WITH_CODE, ids=[p.name for p in WITH_CODE])
def test_every_hint_s_code_runs_as_written_in_the_stub(puzzle: Puzzle) -> None:
    # A hint's code uses only what the stub defines (`(Is <= Os) / 20` needs Is and Os).
    for k in range(1, len(puzzle.hints) + 1):
        _run_hints(puzzle, k)


def test_the_harness_catches_a_hint_using_undefined_names() -> None:
    import dataclasses

    cumsum = next(p for p in puzzles() if p.name == "cumsum")
    broken = dataclasses.replace(cumsum, hints=("`(Is <= Os) / 20`.",))
    with pytest.raises(AssertionError, match=r"`\(Is <= Os\) / 20` does not run as written: name 'Is' is not defined"):
        _run_hints(broken, 1)


VARIED = [p for p in puzzles() if p.params]


def _variants_of(puzzle: Puzzle, every: bool) -> list[Puzzle]:
    """The non-canonical variants of `puzzle`: every one (the slow tier), or the first, middle
    and last (the default run: the extremes of each parameter's list of choices)."""
    from checker.engine import _variants

    found = list(_variants.variants(puzzle)[1:])
    return found if every else [found[i] for i in sorted({0, len(found) // 2, len(found) - 1})]


def _check_variants(puzzle: Puzzle, every: bool) -> None:
    # Merging the variants with the runnable hints: a size a hint defines (`np.arange(10)`) must
    # follow the variant (prod's `n`, running_mean's output count), or its code fails on the
    # variant's shapes. The canonical variant is the test above.
    from checker.engine import _variants

    for variant in _variants_of(puzzle, every):
        if not any(_code(s) for h in variant.hints for s in _spans(h)):
            continue
        for k in range(1, len(variant.hints) + 1):
            try:
                _run_hints(variant, k)
            except AssertionError as exc:
                raise AssertionError(f"{_variants.label(variant)}: {exc}") from None


@pytest.mark.parametrize("puzzle", VARIED, ids=[p.name for p in VARIED])
def test_the_first_middle_and_last_variant_s_hints_run_as_written_in_their_own_stubs(puzzle: Puzzle) -> None:
    _check_variants(puzzle, every=False)


@pytest.mark.slow
@pytest.mark.parametrize("puzzle", VARIED, ids=[p.name for p in VARIED])
def test_every_variant_s_hints_run_as_written_in_its_own_stub(puzzle: Puzzle) -> None:
    _check_variants(puzzle, every=True)
