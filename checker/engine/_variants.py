"""Per-student variants of a puzzle: which one a student gets, and the concrete puzzle.

A puzzle may declare parameters in the catalog (`[puzzle.params.NAME]`, see `_catalog.Param`);
each combination of choices is a variant, rendered into a `Puzzle` whose text, `f` and shapes
hold concrete values. The canonical variant (every first choice) is the published puzzle.

A student's variant is a pure function of (assignment seed, student id, puzzle name): a SHA-256
digest of a fixed text encoding of the three, so it is the same in every process, on every
platform and every Python version, with no server and no state. It is drawn among the
non-canonical variants, whose answers are not published.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any

from checker.engine._catalog import PLACEHOLDER, CatalogError, Choices, Puzzle, all_choices, puzzle_named, render

# Changing the encoding reassigns every student's variants: bump it only with the catalog's format.
_DOMAIN = b"jacpuzzles-variant-v1\n"


def _base(puzzle: Puzzle | str) -> Puzzle:
    return puzzle_named(puzzle) if isinstance(puzzle, str) else puzzle


def choices(puzzle: Puzzle | str) -> tuple[Choices, ...]:
    """Every variant of `puzzle` as its choices, the canonical one `()` first."""
    found = all_choices(_base(puzzle))
    return ((),) + found[1:]


def variants(puzzle: Puzzle | str) -> tuple[Puzzle, ...]:
    """Every variant of `puzzle` as a concrete puzzle, the canonical one first."""
    base = _base(puzzle)
    return tuple(render(base, c) for c in choices(base))


def variant(puzzle: Puzzle | str, chosen: Mapping[str, Any] | Choices | None = None) -> Puzzle:
    """The concrete puzzle for `chosen` (parameter name -> choice; the canonical puzzle when
    None or empty). Raises `CatalogError` for a parameter or choice the puzzle does not have."""
    return render(_base(puzzle), dict(chosen or ()))


def digest(seed: int | str, student: str, name: str) -> bytes:
    """The SHA-256 digest a variant is chosen by: of a fixed JSON encoding of the three."""
    text = json.dumps([str(seed), str(student).strip(), name], ensure_ascii=True, separators=(",", ":"))
    return hashlib.sha256(_DOMAIN + text.encode("ascii")).digest()


def choose(seed: int | str, student: str, puzzle: Puzzle | str) -> Choices:
    """The choices of the variant `student` gets for `puzzle` under assignment `seed`: one of
    the non-canonical variants, or `()` for a puzzle without parameters."""
    base = _base(puzzle)
    others = choices(base)[1:]
    if not others:
        return ()
    index = int.from_bytes(digest(seed, student, base.name)[:8], "big") % len(others)
    return others[index]


def assigned(seed: int | str, student: str, puzzle: Puzzle | str) -> Puzzle:
    """The concrete puzzle `student` gets for `puzzle` under assignment `seed`."""
    base = _base(puzzle)
    return render(base, choose(seed, student, base))


def label(puzzle: Puzzle) -> str:
    """The variant in words, e.g. `direction=right, scale=25`; "canonical" for the published one."""
    return ", ".join(f"{name}={value}" for name, value in puzzle.variant) or "canonical"


def fill(puzzle: Puzzle, text: str) -> str:
    """`text` (written with the catalog's placeholders, e.g. a reference answer kept with the
    tests) with the choices of `puzzle`'s variant filled in. Raises `CatalogError` for a
    placeholder the puzzle has no parameter or word for."""
    params = {p.name: p for p in puzzle.params}
    chosen = dict(puzzle.variant)

    def value(match: re.Match[str]) -> str:
        name, word = match.group(1), match.group(2)
        param = params.get(name)
        if param is None or (word is not None and word not in dict(param.words)):
            raise CatalogError(
                puzzle.name, f"unknown placeholder {match.group(0)} (parameters: {sorted(params) or 'none'})"
            )
        index = param.choices.index(chosen[name]) if name in chosen else 0
        return str(param.value(word, index))

    return PLACEHOLDER.sub(value, text)


def check(puzzle: Puzzle | str) -> None:
    """Raise `CatalogError` when a variant of `puzzle` does not build (a field of the wrong
    type, code that is not valid Python) or its `f` does not return its declared `out` shapes
    (`jax.eval_shape`, nothing computed; imports JAX)."""
    every = variants(puzzle)  # builds each one first: no JAX needed to find a malformed choice
    import jax

    struct: Any = jax.ShapeDtypeStruct  # untyped upstream
    for concrete in every:
        specs = [struct(a.shape, a.dtype) for a in concrete.args if a.static is None and not a.cotangent]
        fn = concrete.on_dynamic(concrete.f) if not concrete.is_vjp else _forward(concrete)
        try:
            result = jax.eval_shape(fn, *specs)
        except Exception as error:  # noqa: BLE001 - whatever the catalog's f raises is a kit bug: say which variant
            raise CatalogError(
                f"{concrete.name} ({label(concrete)})", f"f does not run on its declared argument shapes: {error}"
            ) from None
        found = tuple(tuple(leaf.shape) for leaf in jax.tree_util.tree_leaves(result))
        if found != concrete.outs:
            raise CatalogError(
                f"{concrete.name} ({label(concrete)})",
                f"f returns shapes {list(found)}, the catalog declares out = {list(concrete.outs)}",
            )


def _forward(puzzle: Puzzle) -> Any:
    """A backward-pass puzzle's f on its non-static arguments (the upstream gradient left out)."""
    fixed = [a.static for a in puzzle.f_args]

    def call(*dynamic: Any) -> Any:
        rest = iter(dynamic)
        return puzzle.f(*(next(rest) if value is None else value for value in fixed))

    return call
