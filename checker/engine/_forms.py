"""The per-entry answer form of the original Autodiff Puzzles notebook, turned into a `jac`.

Earlier versions of the notebook (and many published solutions) answer a puzzle with
`fb_<name>(x[, y])`, which returns `(f, dx[, dy])`: `f` gives one output entry, and `dx(i, o)`
one partial derivative, d f[o] / d x[i], as a plain number. Input indices come first, then
output indices, one per axis: `dx(i, j, o, p)` for a matrix input and a matrix output, `dy(j, o,
p)` for a vector `y` and a matrix output. `per_entry` wraps such a function into a callable that
takes `f`'s arguments and returns the full Jacobian, output axes first, as `jax.jacfwd` does, so
the runner calls it like any `jac`.

Speed: `fb` is called once per draw. Each derivative function is first evaluated on every entry
at once, under `jax.vmap` over index arrays (no Python call per entry); only when that does not
work as written (a Python `if` on an index, `range(i)`) is it called once per entry with Python
ints. The `f` that `fb` returns is never used: the expected Jacobians come from the catalog.
"""

from __future__ import annotations

import inspect
import itertools
import math
from collections.abc import Callable
from typing import Any, NoReturn

import numpy as np

from checker.engine._catalog import Puzzle
from checker.engine._verdict import Kind, counted

_INPUT_LETTERS = "ijklmn"
_OUTPUT_LETTERS = "opqrst"


class FormError(Exception):
    """A per-entry answer that cannot be read as written; `message` says which entry and why.
    Control flow: the runner turns it into the answer's verdict, so it never reaches the user
    as an exception (not a `JacpuzzlesError`)."""

    def __init__(self, kind: Kind, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


def fb_name(puzzle: Puzzle) -> str:
    """The per-entry form's function name for `puzzle`: `fb_cumsum`."""
    return f"fb_{puzzle.name}"


def applies(puzzle: Puzzle) -> bool:
    """Whether `puzzle` can be answered in the per-entry form: an autodiff-chapter Jacobian of
    one output and one or two floating arguments (the shapes the original notebook used)."""
    return (
        puzzle.chapter == "autodiff"
        and not puzzle.is_vjp
        and len(puzzle.outs) == 1
        and 1 <= len(puzzle.args) <= 2
        and all(a.differentiable and a.static is None for a in puzzle.args)
    )


def not_applicable(puzzle: Puzzle) -> str:
    """Why `fb_<name>` is not accepted for `puzzle`, and what to write instead."""
    return (
        f"`{fb_name(puzzle)}` (the per-entry form of the original Autodiff Puzzles) is accepted only for the "
        f"autodiff chapter's puzzles; {puzzle.name} is in the {puzzle.chapter} chapter: write "
        f"`{puzzle.jac_signature()}` instead"
    )


def derivative_names(puzzle: Puzzle) -> list[str]:
    """The derivative functions `fb` returns after `f`: `dx`, `dy`."""
    return [f"d{a.name}" if len(a.name) == 1 else f"d_{a.name}" for a in puzzle.wrt]


def index_letters(puzzle: Puzzle, k: int) -> tuple[list[str], list[str]]:
    """The index names of derivative `k`'s parameters: the input's axes, then the output's."""
    return list(_INPUT_LETTERS[: len(puzzle.wrt[k].shape)]), list(_OUTPUT_LETTERS[: len(puzzle.outs[0])])


def call_form(puzzle: Puzzle, k: int) -> str:
    """How derivative `k` is called: `dx(i, o)`, `dx(i, j, o, p)`."""
    ins, outs = index_letters(puzzle, k)
    return f"{derivative_names(puzzle)[k]}({', '.join(ins + outs)})"


def signature_problem(puzzle: Puzzle, fb: Any) -> str | None:
    """Why `fb` cannot be called with `f`'s arguments, or None."""
    names = [a.name for a in puzzle.args]
    try:
        inspect.signature(fb).bind(*names)
    except TypeError:
        return (
            f"{fb_name(puzzle)}{inspect.signature(fb)} cannot be called like {puzzle.name}({', '.join(names)}): "
            f"{fb_name(puzzle)} takes the same arguments as f"
        )
    except ValueError:
        pass  # no signature to read (a builtin): just call it
    return None


def per_entry(puzzle: Puzzle, fb: Callable[..., Any]) -> Callable[..., Any]:
    """`fb` as a `jac`: takes `f`'s arguments, returns the Jacobian (a pair for two arguments)."""

    def jac(*args: Any) -> Any:
        returned = fb(*args)
        derivatives = _derivatives(puzzle, returned)
        blocks = tuple(_block(puzzle, k, d) for k, d in enumerate(derivatives))
        return blocks[0] if len(blocks) == 1 else blocks

    jac.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(a.name, inspect.Parameter.POSITIONAL_OR_KEYWORD) for a in puzzle.args]
    )
    jac.__name__ = jac.__qualname__ = fb_name(puzzle)
    jac._jacpuzzles_name = fb_name(puzzle)  # type: ignore[attr-defined]  # what the runner's messages call it
    return jac


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def _derivatives(puzzle: Puzzle, returned: Any) -> list[Callable[..., Any]]:
    """The derivative functions in what `fb` returned, checked against the form `(f, dx[, dy])`."""
    names = derivative_names(puzzle)
    form = f"(f, {', '.join(names)})"
    wrt = ", ".join(a.name for a in puzzle.wrt)
    if not isinstance(returned, (tuple, list)) or len(returned) != 1 + len(names):
        got = (
            f"a {type(returned).__name__} of {counted(len(returned), 'entry')}"
            if isinstance(returned, (tuple, list))
            else f"a {type(returned).__name__}"
        )
        _raise(Kind.STRUCTURE, (
            f"{fb_name(puzzle)} returns {form}: f, then one derivative function per argument of f ({wrt}); got {got}"
        ))
    found = list(returned[1:])
    for k, d in enumerate(found):
        if not callable(d):
            _raise(Kind.STRUCTURE, (
                f"the {_ordinal(k + 2)} entry of what {fb_name(puzzle)} returns is {names[k]}, a function of indices "
                f"called as {call_form(puzzle, k)}; got a {type(d).__name__}"
            ))
        try:
            inspect.signature(d).bind(*range(_arity(puzzle, k)))
        except TypeError:
            ins, outs = index_letters(puzzle, k)
            arg = puzzle.wrt[k]
            _raise(
                Kind.SIGNATURE,
                (
                    f"{names[k]}{inspect.signature(d)} takes the wrong number of indices: it is called as "
                    f"{call_form(puzzle, k)}, {_count(len(ins), 'index', 'indices')} of {arg.name} {arg.shape} and "
                    "then "
                    f"{_count(len(outs), 'index', 'indices')} of f's output {puzzle.outs[0]}, and returns d "
                    f"f[{', '.join(outs)}] / "
                    f"d {arg.name}[{', '.join(ins)}]"
                ),
            )
        except ValueError:
            pass
    return found


def _raise(kind: Kind, message: str) -> NoReturn:
    raise FormError(kind, message)


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _arity(puzzle: Puzzle, k: int) -> int:
    return len(puzzle.wrt[k].shape) + len(puzzle.outs[0])


def _entry(puzzle: Puzzle, k: int, ins: tuple[int, ...], outs: tuple[int, ...]) -> str:
    """`dx(3, 2), that is d f[2] / d x[3]`: one call, in the learner's terms."""
    arg = puzzle.wrt[k].name
    return (
        f"{derivative_names(puzzle)[k]}({', '.join(map(str, ins + outs))}), that is "
        f"d f[{', '.join(map(str, outs))}] / d {arg}[{', '.join(map(str, ins))}]"
    )


def _block(puzzle: Puzzle, k: int, d: Callable[..., Any]) -> Any:
    """Derivative function `k` evaluated on every entry: the Jacobian block, output axes first."""
    out_shape, in_shape = puzzle.outs[0], puzzle.wrt[k].shape
    shape = out_shape + in_shape
    vectorized = _vectorized(puzzle, k, d, shape)
    if vectorized is not None:
        return vectorized
    return _entry_by_entry(puzzle, k, d, shape)


def _vectorized(puzzle: Puzzle, k: int, d: Callable[..., Any], shape: tuple[int, ...]) -> Any | None:
    """Every entry in one call under `jax.vmap`, or None when `d` does not run on index arrays."""
    import jax
    import jax.numpy as jnp

    n_out = len(puzzle.outs[0])
    grids = [g.reshape(-1) for g in np.indices(shape)]  # output axes, then input axes
    order = grids[n_out:] + grids[:n_out]  # d takes the input's indices first
    try:
        flat = jax.vmap(d)(*(jnp.asarray(g) for g in order))
        kind = jnp.asarray(flat).dtype.kind
    except NotImplementedError:
        raise
    except Exception:  # noqa: BLE001 - not written for index arrays: call it entry by entry instead
        return None
    got = tuple(jnp.shape(flat))
    if got != (math.prod(shape),):
        per = got[1:]
        origin = (0,) * len(puzzle.wrt[k].shape), (0,) * n_out
        raise FormError(
            Kind.NOT_NUMBERS, _not_a_number(puzzle, k, _entry(puzzle, k, *origin), f"an array of shape {per}")
        )
    if kind == "c":
        raise FormError(
            Kind.NOT_NUMBERS,
            f"{derivative_names(puzzle)[k]} returned complex numbers: a derivative of a real function is real",
        )
    if kind not in "biuf":
        return None
    return jnp.reshape(flat, shape)


def _not_a_number(puzzle: Puzzle, k: int, entry: str, got: str) -> str:
    name = derivative_names(puzzle)[k]
    return (
        f"{name} returned {got} for {entry}: {name} gives one partial derivative, a single number, per call; "
        f"to return whole arrays, write `{puzzle.jac_signature()}` instead"
    )


def _entry_by_entry(puzzle: Puzzle, k: int, d: Callable[..., Any], shape: tuple[int, ...]) -> Any:
    """Every entry by its own call with Python ints, output-major (row-major over `shape`)."""
    import jax.numpy as jnp

    n_out = len(puzzle.outs[0])
    values: list[Any] = []
    plain = True
    for index in itertools.product(*(range(n) for n in shape)):
        outs, ins = index[:n_out], index[n_out:]
        try:
            value = d(*ins, *outs)
        except NotImplementedError:
            raise
        except Exception as exc:  # the learner's error, reported with the entry it was computing
            raise FormError(Kind.EXCEPTION, f"{_entry(puzzle, k, ins, outs)} raised {_describe(exc)}") from exc
        if value is None:
            raise FormError(
                Kind.NOT_NUMBERS, _not_a_number(puzzle, k, _entry(puzzle, k, ins, outs), "None (a missing `return`?)")
            )
        if isinstance(value, (bool, int, float, np.bool_, np.integer, np.floating)):
            values.append(value)
            continue
        if isinstance(value, complex) or np.iscomplexobj(value):
            raise FormError(
                Kind.NOT_NUMBERS,
                f"{derivative_names(puzzle)[k]} returned complex numbers for {_entry(puzzle, k, ins, outs)}: a "
                "derivative of a real function is real",
            )
        got_shape = getattr(value, "shape", None)
        if got_shape is None:
            raise FormError(
                Kind.NOT_NUMBERS, _not_a_number(puzzle, k, _entry(puzzle, k, ins, outs), f"a {type(value).__name__}")
            )
        if tuple(got_shape) != ():
            raise FormError(
                Kind.NOT_NUMBERS,
                _not_a_number(puzzle, k, _entry(puzzle, k, ins, outs), f"an array of shape {tuple(got_shape)}"),
            )
        dtype = getattr(value, "dtype", None)
        if dtype is None or not _real(dtype):
            raise FormError(
                Kind.NOT_NUMBERS,
                _not_a_number(puzzle, k, _entry(puzzle, k, ins, outs), f"a {type(value).__name__} of {dtype}"),
            )
        plain = False
        values.append(value)
    if plain:
        return np.asarray(values, dtype=np.float64).reshape(shape)
    return jnp.stack([jnp.asarray(v) for v in values]).reshape(shape)


def _real(dtype: Any) -> bool:
    import jax.numpy as jnp

    try:
        return np.dtype(dtype).kind in "biuf" or bool(jnp.issubdtype(dtype, jnp.floating))
    except TypeError:
        return False


def _describe(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__
