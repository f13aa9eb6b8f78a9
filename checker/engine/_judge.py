"""The judge: compare an answer's Jacobians with the expected ones and say what is wrong.

Takes values, returns a `Verdict`; never prints. A verdict is `pass` only when every block of
every draw has the expected shape and every entry is within tolerance (see `_tolerance`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from fractions import Fraction

import numpy as np
from jaxtyping import Bool, Float, Shaped

from checker.engine._catalog import FLOAT_DTYPES, Arg, Puzzle
from checker.engine._sampling import LATTICE_OFFSETS, Draw, is_plain, is_weight
from checker.engine._tolerance import at_least_float64, close, failing_draws, tolerance
from checker.engine._verdict import (
    Cell,
    Diagnosis,
    Failure,
    Kind,
    OracleCheck,
    Status,
    Verdict,
    counted,
    draw_phrase,
    number,
)

# A block: one output's derivative with respect to one argument, the output's axes first, then
# the argument's, as `jax.jacfwd` lays them out (`f: Float[Array, "I"] -> Float[Array, "O"]`
# gives a block of shape `O I`); for a backward pass, a cotangent shaped like its argument.
# Blocks differ in shape from one to the next, so their axes are not named here. An expected
# block is a float array; an answer's may hold any dtype (the judge says what is wrong with it),
# and a 0-d one read back from a grading worker's stacked results is a numpy scalar, made an
# array on the way in (`Blocks`, as every helper here takes them).
ExpectedBlocks = tuple[Float[np.ndarray, "..."], ...]
AnswerBlocks = tuple[Shaped[np.ndarray | np.generic, "..."], ...]
Blocks = tuple[np.ndarray, ...]
MAX_CELLS = 5  # wrong cells listed in a diagnosis


def cotangent_name(arg: Arg) -> str:
    """A backward pass's result for `arg`: "dv", "d_embeddings"."""
    return f"d{arg.name}" if len(arg.name) == 1 else f"d_{arg.name}"


def block_names(puzzle: Puzzle) -> list[str]:
    """What each block is called in messages: "the Jacobian", "d f / d y", "d f[1] / d x";
    for a backward pass, the cotangents "dv", "dk"."""
    if puzzle.is_vjp:
        return [cotangent_name(a) for a in puzzle.wrt]
    if len(puzzle.outs) == 1 and len(puzzle.wrt) == 1:
        return ["the Jacobian"]
    names = []
    for k in range(len(puzzle.outs)):
        out = "f" if len(puzzle.outs) == 1 else f"f[{k}]"
        names += [f"d {out} / d {a.name}" for a in puzzle.wrt]
    return names


def _block_arg(puzzle: Puzzle, k: int) -> tuple[tuple[int, ...], Arg]:
    """The output shape and the argument of block `k`."""
    n = len(puzzle.wrt)
    return puzzle.block_outs()[k], puzzle.wrt[k % n]


# Another oracle: its label, its expected blocks per draw (None when it has none here), and the
# note the report shows beside it.
Oracle = tuple[str, list[ExpectedBlocks] | None, str]


def judge(
    puzzle: Puzzle,
    draws: tuple[Draw, ...],
    expected: list[ExpectedBlocks],
    answers: tuple[AnswerBlocks, ...],
    seed: int,
    others: Sequence[Oracle] = (),
) -> Verdict:
    """The verdict on an answer, against JAX's Jacobians and each other oracle's.

    Arguments:
        puzzle: the puzzle (the variant) the answer is for.
        draws: the inputs, in the order drawn.
        expected: per draw, JAX's blocks (`jax.jacfwd`'s, or `jax.vjp`'s cotangents), in the
            order of `block_names(puzzle)`; each block `(*out, *arg)` (a cotangent `(*arg)`).
        answers: per draw, the answer's blocks in the same order, as it returned them (any
            shape or dtype; a 0-d block may be a numpy scalar).
        seed: the seed the draws came from, named in the verdict.
        others: other oracles (TensorFlow's), each with blocks laid out as `expected`.

    Returns the `Verdict`: `pass` only when every block of every draw matches every oracle that
    has blocks here; otherwise the first failure, with its diagnoses.
    """
    arrays = tuple(tuple(np.asarray(b) for b in blocks) for blocks in answers)
    primary = "jax.vjp" if puzzle.is_vjp else "jax.jacfwd"
    verdict = _against(puzzle, draws, expected, arrays, seed)
    if verdict.failure is not None:
        failure = verdict.failure
        d = next(i for i, draw in enumerate(draws) if draw.label == failure.draw_label)
        k = block_names(puzzle).index(failure.block)
        checks = [OracleCheck(primary, False)] + [
            _disagreeing(label, blocks, note, d, k, failure.yours) for label, blocks, note in others
        ]
        return dataclasses.replace(verdict, oracles=tuple(checks))
    checks = [OracleCheck(primary, True)]
    for label, blocks, note in others:
        if blocks is None:
            checks.append(OracleCheck(label, None, note))
            continue
        second = _against(puzzle, draws, blocks, arrays, seed)
        if second.failure is not None:
            message = f"agrees with {primary} but not with {label}: {second.message}"
            checks.append(OracleCheck(label, False))
            return dataclasses.replace(second, message=message, oracles=tuple(checks))
        checks.append(OracleCheck(label, True))
    return dataclasses.replace(verdict, oracles=tuple(checks))


def _disagreeing(
    label: str, blocks: list[ExpectedBlocks] | None, note: str, d: int, k: int, yours: np.ndarray
) -> OracleCheck:
    # Whether another oracle also rejects the answer's failing block.
    if blocks is None:
        return OracleCheck(label, None, note)
    want = blocks[d][k]
    return OracleCheck(label, bool(yours.shape == want.shape and close(yours, want).all()))


def _against(
    puzzle: Puzzle, draws: tuple[Draw, ...], expected: list[ExpectedBlocks], answers: tuple[Blocks, ...], seed: int
) -> Verdict:
    """The verdict against one oracle's blocks."""
    names = block_names(puzzle)
    order = _order_diagnosis(puzzle, expected[0], answers[0])
    if order is not None:
        failure = _failure(
            puzzle, draws[0], names[0], 0, expected[0][0], answers[0][0], len(_block_arg(puzzle, 0)[0]), None
        )
        everywhere = _wrong_on_every_draw(expected, answers, list(range(len(draws))))
        return _fail(puzzle, seed, len(draws), [order], dataclasses.replace(failure, everywhere=everywhere))
    # Usually none: the answer is right.
    suspects = failing_draws(answers, expected, [d.atol for d in draws], [d.floor for d in draws])
    first = min(suspects, default=0)
    by_simplicity = sorted(suspects, key=lambda d: _simplicity(draws[d], d))
    if suspects and _lattice_diagnoses("", draws[first], first):
        by_simplicity.insert(
            0, by_simplicity.pop(by_simplicity.index(first))
        )  # what f does exactly on a lattice point says more
    elif suspects:
        # A slope wrong on one side of a kink shows only beside the other side; a flipped kernel
        # only where its taps differ (with two zero taps it looks shifted).
        telling = _two_sided_draw(puzzle, draws, expected, answers, by_simplicity)
        if telling is None:
            telling = _flip_draw(puzzle, draws, expected, answers, by_simplicity)
        if telling is not None:
            by_simplicity.insert(0, by_simplicity.pop(by_simplicity.index(telling)))
    for d in by_simplicity:
        draw = draws[d]
        for k, (want, got) in enumerate(zip(expected[d], answers[d])):
            out_shape, arg = _block_arg(puzzle, k)
            failure_args = (puzzle, draw, names[k], k, want, got, len(out_shape))
            if got.shape != want.shape:
                if puzzle.is_vjp:
                    diagnoses = _cotangent_shape_diagnoses(names[k], got, want, puzzle.outs[0], arg)
                else:
                    every = [(a[k], e[k]) for a, e in zip(answers, expected)]
                    diagnoses = _shape_diagnoses(names[k], got, want, out_shape, arg, every)
                failure = dataclasses.replace(
                    _failure(*failure_args, None), everywhere=_wrong_on_every_draw(expected, answers, suspects)
                )
                return _fail(puzzle, seed, len(draws), diagnoses, failure)
            ok = close(got, want, draw.atol, draw.floor)
            if not ok.all():
                wrong = np.asarray(~ok)  # an array even for a 0-d block, where `~` gives a numpy scalar
                failure = _failure(*failure_args, wrong)
                diagnoses = _value_diagnoses(
                    names[k], got, want, wrong, out_shape, arg, draw, puzzle, failure, expected[d],
                    [(a[k], e[k]) for a, e in zip(answers, expected)], [(x.atol, x.floor) for x in draws],
                )
                near = _cancelling_diagnoses(names[k], arg, puzzle, draws, suspects) or _near_lattice_diagnoses(
                    names[k], puzzle, draws, suspects, d
                )
                if near:  # an index shifted to the lattice point it nearly sits on only looks like an off-by-one
                    diagnoses = [x for x in diagnoses if x.kind is not Kind.SHIFTED]
                lattice = _lattice_diagnoses(names[k], draw, d) if d == first else []  # "right on all d draws before"
                failure = dataclasses.replace(failure, everywhere=_wrong_on_every_draw(expected, answers, suspects))
                return _fail(puzzle, seed, len(draws), near + lattice + diagnoses, failure)
    return Verdict(
        puzzle.name,
        Status.PASS,
        f"correct on all {len(draws)} draws (seed {seed})",
        draws=len(draws),
        seed=seed,
    )


_SIMPLICITY: dict[tuple[int, int], tuple[Draw, tuple[float, ...]]] = {}


def _simplicity(draw: Draw, position: int) -> tuple[float, ...]:
    """`simplicity`, remembered per draw object: a class's answers are all judged on the same
    draws, and ranking a failing answer's draws is otherwise most of judging it."""
    key = (id(draw), position)
    found = _SIMPLICITY.get(key)
    if found is not None and found[0] is draw:  # the same draw, not one reusing a freed id
        return found[1]
    if len(_SIMPLICITY) > 100_000:
        _SIMPLICITY.clear()
    value = simplicity(draw, position)
    _SIMPLICITY[key] = (draw, value)
    return value


def simplicity(draw: Draw, position: int) -> tuple[float, ...]:
    """How hard a draw is to reason about, smaller first: the report shows the simplest draw that
    exposes a mistake.

    Built draws before random ones, and before those an argument all zeros (the same on every
    seed, and where many Jacobians are degenerate: shown when it alone exposes the mistake); then
    fewer nonzero entries (a zero entry makes a pattern plain), integers before other numbers,
    fewer distinct values, magnitudes nearest 1 (`3` reads more easily than `1e-7` or `5000`), and
    the draw's position to break ties.
    """
    values = (
        np.concatenate([np.asarray(v, dtype=np.float64).reshape(-1) for v in draw.values])
        if draw.values
        else np.zeros(0)
    )
    finite = values[np.isfinite(values)]
    nonzero = finite[finite != 0]
    spread = float(np.max(np.abs(np.log10(np.abs(nonzero))))) if nonzero.size else 0.0
    whole_zero = any(np.size(v) > 1 and not np.any(np.asarray(v)) for v in draw.values)
    return (
        float(draw.label.startswith("random draw")),
        float(whole_zero),
        float(nonzero.size),
        float(np.count_nonzero(finite != np.round(finite))),
        float(np.unique(finite).size),
        round(spread),
        float(position),
    )


def _wrong_on_every_draw(expected: list[ExpectedBlocks], answers: tuple[Blocks, ...], suspects: list[int]) -> bool:
    """Whether the answer is wrong on every draw (then no draw in particular exposes it)."""
    if len(suspects) < len(expected):
        return False
    blocks = range(len(expected[0])) if expected else range(0)
    if all(
        len({a[k].shape for a in answers} | {e[k].shape for e in expected}) == 1
        and len({a[k].dtype for a in answers}) == 1
        for k in blocks
    ):
        return True  # the blocks stacked, so `failing_draws` compared every draw: all of them failed
    return all(
        any(g.shape != w.shape or not close(g, w).all() for g, w in zip(got, want))
        for got, want in zip(answers, expected)
    )


def _fail(puzzle: Puzzle, seed: int, n: int, diagnoses: list[Diagnosis], failure: Failure) -> Verdict:
    where = f"on all {n} draws" if failure.everywhere and n > 1 else f"on {draw_phrase(failure.draw_label)}"
    return Verdict(
        puzzle.name,
        Status.FAIL,
        f"{diagnoses[0].message} ({where})",
        tuple(diagnoses),
        failure,
        draws=n,
        seed=seed,
    )


def _failure(
    puzzle: Puzzle,
    draw: Draw,
    name: str,
    k: int,
    want: np.ndarray,
    got: np.ndarray,
    out_ndim: int,
    wrong: np.ndarray | None,
) -> Failure:
    cells: tuple[Cell, ...] = ()
    count = 0
    if wrong is not None:
        where = np.argwhere(wrong)
        count = len(where)
        cells = tuple(
            Cell(
                tuple(int(i) for i in idx[:out_ndim]),
                tuple(int(i) for i in idx[out_ndim:]),
                float(got[tuple(idx)]),
                float(want[tuple(idx)]),
            )
            for idx in where[:MAX_CELLS]
        )
    return Failure(
        draw_label=draw.label,
        draw={a.name: v for a, v in zip(puzzle.args, draw.values)},
        block=name,
        expected=want,
        yours=got,
        wrong=wrong,
        out_ndim=out_ndim,
        out_label="f" if len(puzzle.outs) == 1 else f"f[{k // len(puzzle.wrt)}]",
        arg=puzzle.wrt[k % len(puzzle.wrt)].name,
        cotangent=puzzle.is_vjp,
        cells=cells,
        wrong_count=count,
    )


def _on_every_draw(
    every: Sequence[tuple[np.ndarray, np.ndarray]], right: Callable[[np.ndarray, np.ndarray], bool]
) -> bool:
    """A claim about an answer's values holds only when it holds on every draw, not just one."""
    return all(right(got, want) for got, want in every)


def _right_if_broadcast(got: np.ndarray, want: np.ndarray) -> bool:
    try:
        spread = np.broadcast_to(got, want.shape)
    except ValueError:
        return False
    return bool(close(spread, want).all())


def _extra_axis(got: np.ndarray, want: np.ndarray) -> int | None:
    """The axis of `got` along which every slice is already `want` (one axis too many), or None."""
    if got.ndim != want.ndim + 1:
        return None
    for axis in range(got.ndim):
        # One comparison of the whole array (a slice at a time took minutes for 20000 slices:
        # red team RT34's F4).
        if np.delete(got.shape, axis).tolist() == list(want.shape) and close(
            got, np.broadcast_to(np.expand_dims(want, axis), got.shape)
        ).all():
            return axis
    return None


def _shape_diagnoses(
    name: str, got: np.ndarray, want: np.ndarray, out_shape: tuple[int, ...], arg: Arg,
    every: Sequence[tuple[np.ndarray, np.ndarray]] = (),
) -> list[Diagnosis]:
    head = f"{name}: got shape {got.shape}, expected {want.shape}"
    every = every or [(got, want)]
    found: list[Diagnosis] = []
    if got.shape in (arg.shape, out_shape) and got.ndim < want.ndim:
        found.append(Diagnosis(
            Kind.GRADIENT,
            f"{head}: one row per output, one column per input - did you return a gradient instead of a Jacobian?",
        ))
    axes = [_extra_axis(g, w) for g, w in every]
    if axes[0] is not None and all(a == axes[0] for a in axes):
        found.append(Diagnosis(
            Kind.EXTRA_AXIS,
            f"{head}: one axis too many - every slice of yours along axis {axes[0]} is already the "
            f"whole Jacobian; return one of them (drop axis {axes[0]}, which a broadcast or a stray "
            "[None] may have added)",
        ))
    if _on_every_draw(every, _right_if_broadcast):
        found.append(Diagnosis(
            Kind.BROADCAST,
            f"{head}: your values would be right if broadcast to the full shape, but the checker "
            f"does not broadcast; return the whole {want.shape} array (for example with "
            f"`np.broadcast_to(..., {want.shape})`)",
        ))
    swapped = arg.shape + out_shape
    if got.shape == swapped and swapped != want.shape:
        transposed = _on_every_draw(every, lambda g, w: bool(close(_swap(g, len(arg.shape)), w).all()))
        values = " (your values are right once transposed)" if transposed else ""
        found.append(Diagnosis(
            Kind.TRANSPOSED,
            f"{head}: your array has the input's axes first; a Jacobian has the output's axes {out_shape} "
            f"first, then {arg.name}'s axes {arg.shape}{values}",
        ))
    if not found:
        found.append(Diagnosis(
            Kind.SHAPE,
            f"{head}: a Jacobian has the output's axes {out_shape}, then {arg.name}'s axes {arg.shape}",
        ))
    return found


def _order_diagnosis(puzzle: Puzzle, want: Blocks, got: Blocks) -> Diagnosis | None:
    """The blocks have the expected shapes, but in another order (d f / d index before d f / d arr)."""
    shapes, yours = [w.shape for w in want], [g.shape for g in got]
    if yours == shapes or sorted(yours) != sorted(shapes):
        return None
    names = ", ".join(a.name for a in puzzle.wrt)
    per_output = "one tuple per output of f, each holding " if len(puzzle.outs) > 1 else ""
    return Diagnosis(
        Kind.STRUCTURE,
        f"your blocks have the expected shapes {shapes} but in the order {yours}: return {per_output}one block "
        f"per floating argument, in f's argument order ({names})",
    )


def _cotangent_shape_diagnoses(
    name: str, got: np.ndarray, want: np.ndarray, out_shape: tuple[int, ...], arg: Arg
) -> list[Diagnosis]:
    head = f"{name}: got shape {got.shape}, expected {want.shape}"
    if got.shape == out_shape + arg.shape and got.shape != want.shape:
        return [Diagnosis(
            Kind.GRADIENT,
            f"{head}: that is the whole Jacobian; a backward pass contracts it with g: "
            f"{name} is the sum over f's output axes of g times the Jacobian, shaped like {arg.name}",
        )]
    return [Diagnosis(Kind.SHAPE, f"{head}: {name} is shaped like {arg.name}, {arg.shape}")]


def _swap(array: np.ndarray, first: int) -> np.ndarray:
    """Move the first `first` axes to the back: (I..., O...) -> (O..., I...)."""
    return np.moveaxis(array, tuple(range(first)), tuple(range(array.ndim - first, array.ndim)))


def _value_diagnoses(
    name: str, got: Shaped[np.ndarray, "*jac"], want: Float[np.ndarray, "*jac"], wrong: Bool[np.ndarray, "*jac"],
    out_shape: tuple[int, ...], arg: Arg, draw: Draw, puzzle: Puzzle, failure: Failure, siblings: ExpectedBlocks = (),
    every: Sequence[tuple[np.ndarray, np.ndarray]] = (), atols: Sequence[tuple[float, float]] = (),
) -> list[Diagnosis]:
    """What a block of the right shape got wrong (`wrong` marks its entries), most telling first.
    `every`: (yours, expected) of this block on every draw; `atols`: each draw's `Draw.atol` and `Draw.floor`."""
    found: list[Diagnosis] = []
    bad = ~np.isfinite(got.astype(np.float64))
    if bad.any():
        # An index exactly at 0 is a lattice point, not "a zero entry" an answer might divide by.
        zeros = [
            f"{a.name}[{', '.join(map(str, np.argwhere(v == 0)[0]))}]" for a, v in zip(puzzle.args, draw.values)
            if a.differentiable and "integer" not in a.edge_names and (v == 0).any()
        ]
        what = f"NaN or inf in {int(bad.sum())} entr{'y' if bad.sum() == 1 else 'ies'} of {name}"
        overflow = (
            _overflow_diagnosis(what, bad, out_shape, arg, puzzle, draw)
            if np.isfinite(want.astype(np.float64)).all()
            else None
        )
        masked = _masked_row(puzzle, draw)
        # Non-finite on every draw, also those without a zero entry: not a division at one input
        # (red team RT39's S1: a dtype that cannot hold 0, a block of inf).
        everywhere = len(every) > 1 and all((~np.isfinite(np.asarray(a, np.float64))).any() for a, _ in every)
        if overflow is not None:
            found.append(overflow)
        elif everywhere:
            held = (f"; yours is {got.dtype}: can that type hold these values? Return float64"
                    if got.dtype != np.float64 else "")
            found.append(Diagnosis(
                Kind.NONFINITE,
                f"{what}, and NaN or inf on every one of the {len(every)} draws, where the expected Jacobian is "
                f"finite: it is not one input that makes it{held}",
            ))
        elif masked is not None:
            found.append(Diagnosis(
                Kind.ZERO_DIVISION,
                f"{what}, at an input where {masked} is all zeros, so that the scores it enters are exactly "
                f"0: a mask made from the scores' values (`scores == 0`) masks them, and a row whose every "
                f"score is masked has a softmax of 0 / 0. f masks by position alone; make the mask the same way",
            ))
        elif zeros:
            found.append(Diagnosis(
                Kind.ZERO_DIVISION,
                f"{what}, at an input with a zero entry ({zeros[0]} = 0): does your formula divide by "
                f"an input? The Jacobian is finite there; find a form without the division",
            ))
        else:
            found.append(Diagnosis(Kind.NONFINITE, f"{what}, where the expected Jacobian is finite"))
        return found + [_cells_diagnosis(name, failure)]
    g = got.astype(np.float64)
    w = want.astype(np.float64)
    precision = _precision_diagnosis(name, got, w)
    if precision is not None:
        return [precision, _cells_diagnosis(name, failure)]
    at_zero = _at_zero_diagnosis(name, g, w, wrong, draw, every, atols, tolerance(got.dtype)[1], failure)
    if at_zero is not None:
        return [at_zero, _cells_diagnosis(name, failure)]
    nearly = _nearly_right_diagnosis(name, g, w, wrong, every, atols, tolerance(got.dtype)[0])
    if nearly is not None:
        return [nearly, _cells_diagnosis(name, failure)]
    nonzero = bool(np.any(np.abs(w) > 0))
    if nonzero and close(-g, want, draw.atol, draw.floor).all():
        found.append(
            Diagnosis(Kind.SIGN, f"{name} has the wrong sign: every entry is the negative of the expected one")
        )
    elif nonzero and not np.any(g):
        depends = f"the expected {name} is not" if puzzle.is_vjp else f"f does depend on {arg.name}"
        found.append(Diagnosis(Kind.CELLS, f"{name} is all zeros, but {depends}"))
    elif nonzero:
        # Scaled by the largest expected entry first: the squares of entries of 1e-180 are 0.
        top = float(np.max(np.abs(w)))
        with np.errstate(all="ignore"):
            factor = float(np.sum((g / top) * (w / top)) / np.sum((w / top) ** 2))
        scaled = math.isfinite(factor) and factor != 0 and not np.isclose(factor, 1.0, rtol=1e-3)
        if scaled:
            # "A constant factor" only where the same factor holds on every draw: with one nonzero
            # entry any wrong value is a multiple of it on its draw (red team RT33: `cos`'s one entry
            # called 23/362 times the expected one), and a factor that is an input's function (one
            # sigma too many in layer_norm) is a fraction of that draw alone (RT34's F11: 171/85).
            scaled = all(np.shape(a) == np.shape(e) and close(np.asarray(a, np.float64) / factor, e, *tols).all()
                         for (a, e), tols in zip(every, atols or [(0.0, 0.0)] * len(every)))
        if scaled and close(g / factor, want, draw.atol, draw.floor).all():
            published = _published_diagnosis(name, factor, puzzle)
            found += [published] if published is not None else []
            found.append(Diagnosis(Kind.FACTOR, f"{name} is off by a constant factor: {_factor_words(factor)}"))
    found += _kink_diagnoses(name, g, w, out_shape, arg, draw, puzzle)
    found += _coupling_diagnoses(name, g, w, out_shape, arg)
    flips = _flip_diagnoses(name, g, w, out_shape, arg, draw, puzzle, siblings)
    found += flips
    if arg.shape + out_shape == want.shape:  # the input-axes-first layout has the same shape
        flipped = _swap(w, len(out_shape))
        if not close(flipped, want).all() and close(g, flipped.astype(want.dtype)).all():
            found.append(Diagnosis(
                Kind.TRANSPOSED,
                f"{name} is transposed: you put d f[i] / d {arg.name}[o] where d f[o] / d {arg.name}[i] "
                "belongs. The output's axes come first, then the input's",
            ))
    # A flipped band also looks shifted.
    found += [] if flips else _shift_diagnoses(name, g, want, out_shape, arg, every)
    found += _repeat_diagnoses(name, wrong, puzzle, draw)
    if not found or found[0].kind is not Kind.CELLS:
        found.append(_cells_diagnosis(name, failure))
    return found


def _precision_diagnosis(name: str, got: np.ndarray, w: np.ndarray) -> Diagnosis | None:
    # Right to the precision the answer returns, but that precision is below the checker's.
    if got.dtype.kind in "biu" or at_least_float64(got.dtype):
        return None
    import jax.numpy as jnp

    eps = float(jnp.finfo(got.dtype).eps)  # type: ignore[no-untyped-call]
    g = got.astype(np.float64)
    if not np.all(np.abs(g - w) <= 2 * eps * np.abs(w) + 1e-30):
        return None
    worst = float(np.max(np.abs(g - w) / np.where(w == 0, 1, np.abs(w))))
    rtol, _ = tolerance(got.dtype)
    return Diagnosis(
        Kind.PRECISION,
        f"{name} is right to the precision it is returned in, {got.dtype} (about "
        f"{max(1, round(-np.log10(eps)))} significant digits), but entries are off by up to {worst:.2g} "
        f"relative and the checker accepts {rtol:g}: compute in float64 (the dtype of the inputs) or float32",
    )


# How near the expected entries a float64 answer's wrong entries all are, relatively, for it to be
# called nearly right: three significant digits or more, where most wrong formulas that are right
# on most draws (a branch, a snapped index, a dropped term) are off by far more.
_ROUGHLY = 1e-3


def _right_on(every: Sequence[tuple[np.ndarray, np.ndarray]], atols: Sequence[tuple[float, float]]) -> int:
    """On how many draws the block is right (`every`: yours and expected, per draw)."""
    return sum(
        np.shape(a) == np.shape(e) and bool(close(np.asarray(a, np.float64), e, *tols).all())
        for (a, e), tols in zip(every, atols or [(0.0, 0.0)] * len(every))
    )


def _at_zero_diagnosis(
    name: str, g: np.ndarray, w: np.ndarray, wrong: np.ndarray, draw: Draw,
    every: Sequence[tuple[np.ndarray, np.ndarray]], atols: Sequence[tuple[float, float]], atol: float,
    failure: Failure,
) -> Diagnosis | None:
    # Right on most draws and wrong on one of the zeros of the Jacobian (`_zeros`): off by an
    # absolute hair where the contract allows only 1e-12 of a small block. A constant with too few
    # digits, or small entries cleaned to 0, shows nowhere else (red team RT39).
    if "crossing zero" not in draw.label and "beside its zero" not in draw.label:
        return None
    right = _right_on(every, atols)
    if 2 * right < len(every) or not wrong.any():
        return None
    scale = float(np.max(np.abs(w)))
    worst = float(np.max(np.abs(g[wrong] - w[wrong])))
    where = failure.cells[0] if failure.cells else None
    entry = f" ({_entry_name(failure, where)}, expected {number(float(where.expected), '.2g')})" if where else ""
    at = ("just beside a zero of the Jacobian" if "beside its zero" in draw.label
          else "where an entry of the Jacobian crosses zero")
    return Diagnosis(
        Kind.AT_ZERO,
        f"{name} is right on {right} of {len(every)} draws; this one is {at}{entry}, and the largest entry "
        f"of {name} is only {number(scale, '.2g')}: there the "
        f"checker allows {number(atol * scale, '.1g')} and yours is off by {number(worst, '.2g')}. Errors that "
        "small show only at such inputs: a constant written with too few digits (type every digit, or compute it: "
        "`np.sqrt(2 / np.pi)`), small values set to 0 as if they were rounding noise, or arithmetic in float32",
    )


def _nearly_right_diagnosis(
    name: str, g: np.ndarray, w: np.ndarray, wrong: np.ndarray,
    every: Sequence[tuple[np.ndarray, np.ndarray]], atols: Sequence[tuple[float, float]], rtol: float,
) -> Diagnosis | None:
    # Right on most draws, and where wrong, right to 3 digits or more but not to the contract's 7:
    # either a small term is missing on this input (eps forgotten where a shortcut fires: red team
    # RT38) or the arithmetic loses digits (RT37: softmax as exp(x - logsumexp(x)), whose 1 - s for
    # a leading weight s near 1 keeps 6 digits). The draw's label says which input it is.
    if not wrong.any() or not np.all(w[wrong] != 0):
        return None
    worst = float(np.max(np.abs(g[wrong] - w[wrong]) / np.abs(w[wrong])))
    if not worst <= _ROUGHLY:
        return None
    right = _right_on(every, atols)
    if 2 * right < len(every):
        return None
    return Diagnosis(
        Kind.NEARLY_RIGHT,
        f"{name} is right on {right} of {len(every)} draws, and on this one off by at most {worst:.1g} relative "
        f"(the checker accepts {rtol:g}): nearly right. Either something small is left out on such inputs "
        "(eps under a root; a term a shortcut drops, or a test such as `isclose` that fires here), or the "
        "arithmetic loses digits: 1 - s for a weight s near 1 (a saturated softmax line, or weights taken as "
        "exp(x - logsumexp(x))), a difference of nearly equal values, a constant written with too few digits, "
        "a step in float32. Compute as f does: weights as exp(x - max) / sum, constants in full, in float64",
    )


def _before(d: int) -> str:
    """The `d` draws judged before this one: "all 12 draws before this one"."""
    return "the draw before this one" if d == 1 else f"all {d} draws before this one"


def _lattice_diagnoses(name: str, draw: Draw, d: int) -> list[Diagnosis]:
    # Every random draw came first and passed: a mistake that shows only where an index sits on
    # an integer or a half is about what f does exactly there.
    if draw.label.startswith("half-integer draw"):
        return [Diagnosis(
            Kind.HALF_INTEGER,
            f"{name} is right on {_before(d)}, where an index is exactly k + 0.5: "
            "f rounds half to even (np.round(0.5) == 0, np.round(1.5) == 2, np.round(2.5) == 2); "
            "floor(x + 0.5) rounds half up",
        )]
    if draw.label.startswith("integer draw"):
        return [Diagnosis(
            Kind.INTEGER_INDEX,
            f"{name} is right on {_before(d)}, where an index is an exact integer: "
            "there floor == ceil, so an interpolation weight t = (x - floor) / (ceil - floor) is 0 "
            "by f's safe division, with a zero derivative; a soft mask entry is exactly 0 or 1; and a "
            "clip at the ends of the array may hold the index still",
        )]
    return []


_NEAR = max(LATTICE_OFFSETS) * (1 + 1e-6)  # how far from a lattice point the near draws put an index
# Below this distance under k + 0.5 (a few ulps of an index of a few units), x + 0.5 may round up to
# the integer above: floor(x + 0.5) is then wrong with no tolerance in the answer.
_SUM_ROUNDS = 4e-15


def _lattice_gaps(puzzle: Puzzle, draw: Draw) -> list[tuple[float, str]]:
    """How far each index entry of `draw` is from the nearest integer and from the nearest k + 0.5
    (for the lattices its argument is drawn on), with the lattice's name."""
    found: list[tuple[float, str]] = []
    for arg, values in zip(puzzle.args, draw.values):
        v = np.asarray(values, dtype=np.float64).reshape(-1)
        for kind in ("integer", "half-integer"):
            if kind in arg.edge_names and arg.dtype in FLOAT_DTYPES:
                gap = np.abs(v - np.round(v)) if kind == "integer" else np.abs(v - np.floor(v) - 0.5)
                found += [(float(g), kind) for g in gap]
    return found


def _near_lattice_diagnoses(
    name: str, puzzle: Puzzle, draws: tuple[Draw, ...], suspects: list[int], d: int
) -> list[Diagnosis]:
    # Wrong only on draws where an index is close to an integer (or a half) without being on it:
    # the answer snaps a nearly whole index to the lattice point (a tolerance such as
    # abs(x - round(x)) < eps, np.isclose), where f snaps none. The shift that results is not an
    # off-by-one in the answer's index arithmetic.
    if not suspects or len(suspects) == len(draws):
        return []
    for s in suspects:
        if not any(0 < g <= _NEAR for g, _ in _lattice_gaps(puzzle, draws[s])):
            return []
    gap, kind = min((g, k) for g, k in _lattice_gaps(puzzle, draws[d]) if 0 < g <= _NEAR)
    farthest = max(min(g for g, _ in _lattice_gaps(puzzle, draws[s]) if 0 < g <= _NEAR) for s in suspects)
    passing = [draws[e] for e in range(len(draws)) if e not in set(suspects)]
    on = any(x.label.startswith(f"{kind} draw") for x in passing)
    beyond = any(farthest < g <= _NEAR for x in passing for g, k in _lattice_gaps(puzzle, x) if k == kind)
    if kind == "integer":
        point, points = "an integer", "integers"
        why = (
            "does your answer treat an index that is nearly an integer as an integer (a tolerance such as "
            "abs(x - round(x)) < eps, or np.isclose), or round it to float32, which puts it on one? f tests "
            "for an exact integer (floor == ceil): "
            f"{gap:.2g} away from one, floor and ceil still differ, and the derivative is the one between integers"
        )
    else:
        point, points = "a half-integer (k + 0.5)", "half-integers"
        why = (
            "does your answer treat an index that is nearly k + 0.5 as exactly k + 0.5 (a tolerance such as "
            f"abs(x - floor(x) - 0.5) < eps)? f rounds the index as it is: {gap:.2g} away from k + 0.5, it "
            "rounds to the nearer side"
        )
        if gap < _SUM_ROUNDS:
            # No tolerance needed: 0.49999999999999994 + 0.5 is 1.0 in float64 (red team RT36).
            why += (
                ". Or does it round with floor(x + 0.5)? Just below k + 0.5, x + 0.5 itself rounds up to the "
                "next integer in float64, so floor picks the index above: round with np.round"
            )
    right = " and ".join(([f"exactly on {points}"] if on else []) + (["farther from them"] if beyond else []))
    return [Diagnosis(
        Kind.NEAR_LATTICE,
        f"{name} is wrong only where an index is within {farthest:.2g} of {point} without being on it "
        f"(here {gap:.2g} away){f', and right {right}' if right else ''}: {why}",
    )]


# How close the plain arguments' entries are on the draws where a difference of them cancels
# (`_sampling.BLEND_GAPS`): within this share of one common value.
_NEARLY_EQUAL = 3e-3


def _nearly_equal(puzzle: Puzzle, draw: Draw) -> bool:
    """Whether every entry of every plain argument of `draw` is within _NEARLY_EQUAL of one value."""
    entries = np.concatenate([np.asarray(v, np.float64).reshape(-1) for a, v in zip(puzzle.args, draw.values)
                              if is_plain(a)] or [np.zeros(0)])
    if entries.size < 2 or not np.all(np.isfinite(entries)) or entries[0] == 0:
        return False
    return bool(np.all(np.abs(entries - entries[0]) <= _NEARLY_EQUAL * abs(entries[0])))


def _cancelling_diagnoses(
    name: str, arg: Arg, puzzle: Puzzle, draws: tuple[Draw, ...], suspects: list[int]
) -> list[Diagnosis]:
    # The slope in a weight (a soft write's e - a) wrong mostly where the plain arguments are
    # nearly equal: taken the long way round, (f - a) / m, it keeps f's rounding and loses the
    # difference's digits (red team RT36). A weight's small entries are near the integer 0 too, and
    # such an answer also fails there when e and a are close by chance, but snapping is not the
    # mistake. (A mask snapped to 0 is wrong in the blocks it multiplies, not in its own.)
    close_draws = sum(_nearly_equal(puzzle, draws[s]) for s in suspects)
    if not is_weight(arg) or not suspects or len(suspects) == len(draws) or 2 * close_draws < len(suspects):
        return []
    names = ", ".join(a.name for a in puzzle.args if is_plain(a))
    return [Diagnosis(
        Kind.CANCELLATION,
        f"{name} is wrong mostly where the entries of {names} are nearly equal (within "
        f"{max(_spread(puzzle, draws[s]) for s in suspects if _nearly_equal(puzzle, draws[s])):.2g} of one another, "
        "relatively), and right on most other draws: "
        "does your answer take a difference of them as 0 when they are close (`isclose`, a tolerance), or get it "
        "the long way round, from values that hold them both (such as (f - arr) / m for element - arr), where "
        "their rounding outweighs the small difference? Subtract the arguments themselves, always",
    )]


def _spread(puzzle: Puzzle, draw: Draw) -> float:
    entries = np.concatenate([np.asarray(v, np.float64).reshape(-1) for a, v in zip(puzzle.args, draw.values)
                              if is_plain(a)])
    return float(np.max(np.abs(entries - entries[0])) / abs(entries[0]))


def _repeat_diagnoses(name: str, wrong: np.ndarray, puzzle: Puzzle, draw: Draw) -> list[Diagnosis]:
    # A backward pass through a gather must add g once per occurrence of a row; an answer that
    # writes instead of adding is wrong on exactly the rows an index names more than once.
    if not puzzle.is_vjp or wrong.ndim == 0:
        return []
    rows = {int(r) for r in np.argwhere(wrong)[:, 0]}
    for arg, values in zip(puzzle.args, draw.values):
        if arg.dtype in FLOAT_DTYPES or arg.static is not None:
            continue
        found, counts = np.unique(values, return_counts=True)
        repeated = {int(v) for v, c in zip(found, counts) if c > 1}
        if rows and rows <= repeated:
            listed = ", ".join(map(str, sorted(rows)[:6])) + (", ..." if len(rows) > 6 else "")
            return [Diagnosis(
                Kind.REPEATED,
                f"{name} is wrong only on rows that {arg.name} names more than once ({listed}): each "
                f"occurrence adds its share of g, so repeated indices accumulate - did you overwrite "
                f"(`.at[...].set`) instead of adding (`.at[...].add`)?",
            )]
    return []


def _factor_words(factor: float) -> str:
    ratio = Fraction(factor).limit_denominator(1000)
    if abs(float(ratio) - factor) > 1e-3 * abs(factor):
        return f"each of your entries is {factor:.4g} times the expected one"
    if ratio.denominator == 1:
        return (
            f"each of your entries is {ratio.numerator} times the expected one; is a division by {ratio.numerator} "
            "missing?"
        )
    if ratio.numerator == 1:
        return (
            f"each of your entries is 1/{ratio.denominator} of the expected one; did you divide by "
            f"{ratio.denominator} once too often?"
        )
    return f"each of your entries is {ratio} times the expected one"


def _overlap(n: int, step: int) -> tuple[slice, slice]:
    """Where a shift by `step` along an axis of length `n` lands, and where it comes from."""
    return (slice(step, n), slice(0, n - step)) if step > 0 else (slice(0, n + step), slice(-step, n))


def _along(array: np.ndarray, axis: int, part: slice) -> np.ndarray:
    """`array` cut to `part` along `axis`."""
    return array[(slice(None),) * axis + (part,)]


def _shift_diagnoses(
    name: str, g: np.ndarray, want: np.ndarray, out_shape: tuple[int, ...], arg: Arg,
    every: Sequence[tuple[np.ndarray, np.ndarray]] = (),
) -> list[Diagnosis]:
    # Compared on the overlap only: the slice that slides in from past the edge has no expected
    # value (a one-based `arange(1, 11)` continues the pattern there). A Jacobian that is the same
    # shifted (a constant row) says nothing about shifts, so it is skipped, and so is an answer that
    # is (`|g| * ones` beside an expected row `(-g, g, g)` matches it shifted, and is no off-by-one).
    # Input axes are tried
    # first: a band shifted along the input is also shifted along the output, and learners write
    # the input index in terms of the output one (`Is == Os + 10`).
    for axis in [*range(len(out_shape), want.ndim), *range(len(out_shape))]:
        if want.shape[axis] < 2:
            continue
        for step in (1, -1):
            dst, src = _overlap(want.shape[axis], step)
            moved, yours = _along(want, axis, src), _along(g, axis, dst)
            if (close(_along(want, axis, dst), moved).all() or not close(yours, moved).all()
                    or close(yours, _along(g, axis, src)).all()):
                continue
            # An off-by-one is the same shift on every draw: `argmin` for `argmax` in a window of
            # two looks shifted on a draw whose maxima all sit on one side (red team RT34's F3).
            if not all(np.shape(a) == want.shape and close(_along(np.asarray(a, np.float64), axis, dst),
                                                           _along(np.asarray(e), axis, src)).all()
                       for a, e in every):
                continue
            if axis < len(out_shape):
                where = f"the output's axis {axis}" if len(out_shape) > 1 else "the output index"
            else:
                k = axis - len(out_shape)
                where = f"{arg.name}'s axis {k}" if len(arg.shape) > 1 else f"the index of {arg.name}"
            return [Diagnosis(
                Kind.SHIFTED,
                f"{name} is shifted by one along {where}: what belongs at position j sits at "
                f"j {'+' if step > 0 else '-'} 1. Check your index arithmetic for an off-by-one",
            )]
    return []


def _entry_name(failure: Failure, cell: Cell) -> str:
    """`d f[2] / d x[0, 1]`: one entry of a block, in the learner's terms (`dv[1, 2]` for a cotangent)."""
    if failure.cotangent:
        return f"{failure.block}[{', '.join(map(str, cell.in_index))}]" if cell.in_index else failure.block
    out = f"{failure.out_label}[{', '.join(map(str, cell.out_index))}]" if cell.out_index else failure.out_label
    arg = f"{failure.arg}[{', '.join(map(str, cell.in_index))}]" if cell.in_index else failure.arg
    return f"d {out} / d {arg}"


def distinct(yours: float, expected: float) -> tuple[str, str]:
    """The two numbers printed with just enough digits to tell them apart (4 at least)."""
    for digits in range(4, 18):
        a, b = number(yours, f".{digits}g"), number(expected, f".{digits}g")
        if a != b:
            return a, b
    return repr(yours + 0.0), repr(expected + 0.0)


def _cells_diagnosis(name: str, failure: Failure) -> Diagnosis:
    total = failure.expected.size
    listed = "; ".join(
        "{}: yours {}, expected {}".format(_entry_name(failure, c), *distinct(c.yours, c.expected))
        for c in failure.cells
    )
    more = f" (first {len(failure.cells)}: {listed})" if failure.cells else ""
    if len(failure.cells) == 1 and failure.wrong_count == 1:
        more = f" ({listed})"
    if failure.wrong_count == total:
        every = {1: "its only entry", 2: "both its entries"}.get(total, f"all {total} entries")
        return Diagnosis(Kind.CELLS, f"{name} is wrong on {every}{more}")
    return Diagnosis(Kind.CELLS, f"{name} is wrong on {failure.wrong_count} of {counted(total, 'entry')}{more}")


def _overflow_diagnosis(
    what: str, bad: np.ndarray, out_shape: tuple[int, ...], arg: Arg, puzzle: Puzzle, draw: Draw
) -> Diagnosis | None:
    # exp of an entry beyond log(max float) is inf (far below it, 0): an answer that normalises
    # without subtracting the largest entry gets inf / inf or 0 / 0 there. The threshold is an
    # eighth of float64's (float32's own): f may scale its input (a temperature) before exp.
    if arg in puzzle.args and bad.size:
        x = np.asarray(draw.values[puzzle.args.index(arg)]).reshape(-1)
        columns = bad.reshape(-1, x.size).any(axis=0) if bad.size % max(x.size, 1) == 0 else None
        if columns is not None and columns.any() and np.all(x[columns] == 0):
            return None  # non-finite exactly in the columns of zero inputs: a division, not exp
    entries = []
    for a, v in zip(puzzle.args, draw.values):
        values = np.asarray(v)
        if a.differentiable and values.dtype.kind == "f" and values.size:
            for pick in (np.argmax(values), np.argmin(values)):
                at = np.unravel_index(int(pick), values.shape)
                value = float(values[at])
                if abs(value) > _EXP_LIMIT / 8:  # overflow (the largest entry) is named before underflow
                    entries.append((value < 0, -abs(value), value, f"{a.name}[{', '.join(map(str, at))}]"))
    if not entries:
        return None
    _, _, value, where = min(entries)
    size = abs(value)
    scale = "in the hundreds" if size < 1000 else "in the thousands" if size < 10_000 else f"as large as {size:.0e}"
    how = (
        "overflows to inf (beyond 709 in float64, 88 in float32; inf / inf is NaN)" if value > 0 else
        "underflows to 0 (below -745 in float64, -103 in float32; 0 / 0 is NaN)"
    )
    if any(word in puzzle.code for word in _NORMALISERS):
        fix = "Subtract the largest entry first (e = np.exp(x - np.max(x)), along the axis f normalises over)"
    else:  # an entrywise function written with exp (tanh as (e^2u - 1) / (e^2u + 1)): nothing to subtract
        fix = ("Write it so that exp never sees a large entry (np.tanh itself, or exp of -|u| with the sign put "
               "back)")
    return Diagnosis(
        Kind.OVERFLOW,
        f"{what}, at an input with entries {scale} ({where} = {number(value)}): exp of an entry {scale} {how}. "
        f"{fix}: the Jacobian is finite there",
    )


# What f calls when it normalises along an axis (its code): there the cure for an overflowing exp
# is to subtract the largest entry of that axis.
_NORMALISERS = ("softmax", "logsumexp")


def _masked_row(puzzle: Puzzle, draw: Draw) -> str | None:
    """"row i of q" when `f` masks scores (`-np.inf` under a softmax) and the draw has a matrix
    argument with a row of zeros: where an answer masking by value masks a whole row."""
    if "softmax" not in puzzle.code or "-np.inf" not in puzzle.code:
        return None
    for a, v in zip(puzzle.args, draw.values):
        if np.ndim(v) != 2 or not a.differentiable:
            continue
        if np.all(np.asarray(v) == 0):
            return f"every row of {a.name}"
        rows = np.flatnonzero(np.all(np.asarray(v) == 0, axis=-1))
        if len(rows):
            return f"row {int(rows[0])} of {a.name}"
    return None


_EXP_LIMIT = float(np.log(np.finfo(np.float64).max))


_GAINS = ("gain", "scale")  # parameters that multiply f's output (`2 * (...)` in its code)


def _published_diagnosis(name: str, factor: float, puzzle: Puzzle) -> Diagnosis | None:
    # The published puzzle's answer handed in for a variant: off by the variant's gain.
    chosen = dict(puzzle.variant)
    for param in puzzle.params:
        if param.name not in _GAINS or param.name not in chosen:
            continue
        gain, published = chosen[param.name], param.choices[0]
        if isinstance(gain, bool) or not isinstance(gain, (int, float)) or gain == published or published == 0:
            continue
        if np.isclose(factor, published / gain, rtol=1e-3):
            others = [f"{n}={v}" for n, v in puzzle.variant if n != param.name and v != _published_choice(puzzle, n)]
            ratio = Fraction(gain / published).limit_denominator(1000)
            # With the variant's other choices followed, only its gain was left out.
            whose = "you left out your variant's gain" if others else "your answer is the published puzzle's"
            return Diagnosis(
                Kind.PUBLISHED,
                f"{name}: {whose}, but your f multiplies by {number(gain)} "
                f"({param.name}={number(gain)}; the published f by {number(published)}), as its code shows: "
                f"multiply your Jacobian by {ratio}",
            )
    return None


def published_answer(puzzle: Puzzle, failure: Failure, published: np.ndarray) -> Diagnosis | None:
    """A variant's failing block that is the published puzzle's Jacobian on the same draw
    (`published`), or that times the variant's gain: the published answer handed in, with the
    variant's other choices (a temperature, a size of its own) left out. None otherwise."""
    yours = np.asarray(failure.yours)
    theirs = np.asarray(published, dtype=np.float64)
    if yours.shape != theirs.shape or close(theirs, failure.expected).all():
        return None
    chosen = dict(puzzle.variant)
    differ = [(n, v, _published_choice(puzzle, n)) for n, v in puzzle.variant if v != _published_choice(puzzle, n)]
    gains = [(n, v, pub) for n, v, pub in differ if n in _GAINS and isinstance(v, (int, float))
             and isinstance(pub, (int, float)) and pub != 0]
    kept = [(n, v, pub) for n, v, pub in differ if n not in _GAINS]
    if not kept:
        return None  # only the gain differs: a constant factor, which `_published_diagnosis` names
    name = failure.block

    def said(choices: list[tuple[str, object, object]], which: int) -> str:
        return ", ".join(f"{n}={_choice_word((v, pub)[which])}" for n, v, pub in choices)

    if close(yours, theirs.astype(yours.dtype) if yours.dtype.kind == "f" else theirs).all():
        return Diagnosis(
            Kind.PUBLISHED,
            f"{name} is the published puzzle's ({said(differ, 1)}), not your variant's: your f has "
            f"{said(differ, 0)}, as its code shows; work the derivative out again with your f",
        )
    ratio = float(np.prod([float(chosen[n]) / float(pub) for n, _, pub in gains])) if gains else 1.0
    if gains and close(yours, ratio * theirs).all():
        return Diagnosis(
            Kind.PUBLISHED,
            f"{name} is the published puzzle's times your gain: you left out your variant's "
            f"{said(kept, 0)} (the published puzzle has {said(kept, 1)}), as your f's code shows",
        )
    return None


def _choice_word(value: object) -> str:
    # A number as the report prints numbers (2, not 2.0); anything else as the catalog has it.
    return number(float(value)) if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)


def _published_choice(puzzle: Puzzle, name: str) -> object:
    return next((p.choices[0] for p in puzzle.params if p.name == name), None)


def _square(a: np.ndarray, out_shape: tuple[int, ...]) -> np.ndarray | None:
    """A block as an (outputs, inputs) matrix, when there are as many inputs as outputs."""
    n = int(np.prod(out_shape, dtype=np.int64))
    return a.reshape(n, n) if a.size == n * n and n > 1 else None


def _two_sided_draw(
    puzzle: Puzzle, draws: tuple[Draw, ...], expected: list[Blocks], answers: tuple[Blocks, ...], order: list[int],
) -> int | None:
    """The simplest failing draw where the answer is wrong exactly on one side of 0 and the draw
    has inputs on both sides (the kink shows), or None; tried only for diagonal Jacobians."""
    if len(puzzle.wrt) != 1 or len(puzzle.outs) != 1:
        return None
    arg = puzzle.wrt[0]
    first = _square(np.asarray(expected[order[0]][0]), puzzle.outs[0])
    if first is None or first.shape[0] != np.prod(arg.shape) or np.any(first - np.diag(np.diag(first))):
        return None
    for d in order:  # the first draw with both sides decides: a slope wrong on one side is wrong on every draw
        x = np.asarray(draws[d].values[puzzle.args.index(arg)]) if arg in puzzle.args else np.zeros(0)
        if not ((x < 0).any() and (x > 0).any()):
            continue
        got, want = answers[d][0], expected[d][0]
        found = got.shape == want.shape and _kink_diagnoses(
            "", got.astype(np.float64), want.astype(np.float64), puzzle.outs[0], arg, draws[d], puzzle
        )
        return d if found else None
    return None


def _kink_diagnoses(
    name: str, g: np.ndarray, w: np.ndarray, out_shape: tuple[int, ...], arg: Arg, draw: Draw, puzzle: Puzzle
) -> list[Diagnosis]:
    # An elementwise f with a kink at 0 (relu, whose argument declares it by avoiding 0): wrong on
    # exactly the entries on one side. A smooth f (gelu) has no branch to blame: an answer off by
    # a share everywhere (tanh in float32, a rounded constant) shows first where its slopes are
    # small, on one side (red team RT38: "check the negative branch" for gelu).
    if out_shape != arg.shape or arg not in puzzle.args or "zero" not in arg.avoid:
        return []
    G, W = _square(g, out_shape), _square(w, out_shape)
    if (
        G is None
        or W is None
        or np.any(W - np.diag(np.diag(W)))
        or not close(G - np.diag(np.diag(G)), np.zeros_like(W)).all()
    ):
        return []
    x = np.asarray(draw.values[puzzle.args.index(arg)], dtype=np.float64).reshape(-1)
    mine, theirs = np.diag(G), np.diag(W)
    wrong = ~close(mine, theirs)
    for side, other, sign in ((x < 0, x > 0, "negative"), (x > 0, x < 0, "positive")):
        if not other.any() or not wrong.any() or not np.array_equal(wrong, side):
            continue
        rest = "positive" if sign == "negative" else "negative"
        if np.ptp(mine[side]) == 0 and np.ptp(theirs[side]) == 0:
            yours, want = distinct(float(mine[side][0]), float(theirs[side][0]))
            return [Diagnosis(
                Kind.KINK,
                f"{name}: your slope for {sign} inputs is {yours}, expected {want} (right for {rest} inputs): "
                f"check the {sign} branch's slope",
            )]
        return [Diagnosis(
            Kind.KINK,
            f"{name} is wrong exactly where {arg.name} is {sign} and right where it is {rest}: "
            f"check the {sign} branch of your derivative",
        )]
    return []


def _coupling_diagnoses(
    name: str, g: np.ndarray, w: np.ndarray, out_shape: tuple[int, ...], arg: Arg
) -> list[Diagnosis]:
    # Zero off the diagonal where the expected Jacobian is not: the classic `np.diag(s)` for a
    # softmax, which leaves out how the normaliser ties every output to every input.
    G, W = _square(g, out_shape), _square(w, out_shape)
    if G is None or W is None or G.shape[0] != np.prod(arg.shape):
        return []
    off = ~np.eye(G.shape[0], dtype=bool)
    # Where a 0 is wrong, judged at the expected block's scale: entries the contract lets be 0
    # (a normaliser's coupling below 1e-12 of the diagonal, red team RT19) are not missing.
    coupled = off & ~close(np.zeros_like(W), W)
    if not coupled.any() or np.any(G[off] != 0) or not np.any(np.diag(G)):
        return []
    nonzero = ~close(np.zeros_like(W), W)
    if (nonzero.sum(axis=0) == 1).all() and (nonzero.sum(axis=1) == 1).all():
        # A permutation (sort's Jacobian): nothing is missing off the diagonal, the 1s are
        # elsewhere (red team RT37: an identity for `sort` was told of a missing coupling).
        return [Diagnosis(
            Kind.CELLS,
            f"{name} puts each output on its own input, but the expected Jacobian is a permutation with nonzero "
            "entries off the diagonal: each output follows one input, not always its own (for sort, output o is "
            "the input ranked o)",
        )]
    dense = bool(coupled[off].all())
    where = "where every output depends on every input" if dense else "where outputs depend on other inputs too"
    if close(np.diag(G), np.diag(W)).all():
        why = (
            "; for a softmax s, d s_o / d x_i = -s_o s_i there: the normaliser ties every output to every input"
            if dense
            else ""
        )
        return [Diagnosis(
            Kind.COUPLING,
            f"{name} is right on the diagonal, but 0 {where}: the off-diagonal coupling is missing "
            f"({counted(int(coupled.sum()), 'entry')} off the diagonal are not 0{why})",
        )]
    singular = np.linalg.svd(G - W, compute_uv=False)
    if dense and singular.size > 1 and singular[1] <= 1e-6 * singular[0]:
        return [Diagnosis(
            Kind.COUPLING,
            f"{name} is 0 {where}, and off on the diagonal by the same kind of term: your answer misses "
            "one outer product (for a softmax s, the coupling -s_o s_i, on the diagonal too: "
            "d s_o / d x_i = s_o ([o = i] - s_i)). The normaliser ties every output to the inputs it sums",
        )]
    return [Diagnosis(Kind.COUPLING, f"{name} is 0 {where}: the coupling off the diagonal is missing")]


def _kernel_taps(block: np.ndarray, kernel: np.ndarray) -> tuple[np.ndarray, float] | None:
    """Which tap of `kernel` each nonzero entry of a 2-D `block` is (times one common factor),
    or None when the block is not built from the kernel's taps."""
    nonzero = block != 0
    if not nonzero.any() or kernel.size < 2 or np.unique(kernel).size != kernel.size or not np.all(kernel):
        return None
    values = block[nonzero]
    for c in values[0] / kernel:
        taps = np.argmin(np.abs(values[:, None] - c * kernel[None, :]), axis=1)
        if close(c * kernel[taps], values).all():
            full = np.full(block.shape, -1)
            full[nonzero] = taps
            return full, float(c)
    return None


def _flip_diagnoses(
    name: str, g: np.ndarray, w: np.ndarray, out_shape: tuple[int, ...], arg: Arg, draw: Draw, puzzle: Puzzle,
    siblings: Blocks,
) -> list[Diagnosis]:
    # A convolution's kernel flipped where f does not flip it (a cross-correlation), or the other
    # way round: each band of the Jacobian holds the kernel's taps in reverse.
    if len(out_shape) != 1 or w.ndim != 2:
        return []
    kernels = [
        (a, np.asarray(v, dtype=np.float64).reshape(-1)) for a, v in zip(puzzle.args, draw.values)
        if a.differentiable and len(a.shape) == 1 and 2 <= a.shape[0] <= 16 and np.asarray(v).dtype.kind == "f"
    ]
    for kernel_arg, kernel in kernels:
        K = kernel.size
        if kernel_arg == arg:  # d f / d kernel: the kernel's axis reversed
            reversed_ = w[:, ::-1]
            if close(reversed_, w).all() or not close(g, reversed_).all():
                continue
            head = (
                f"{name} has {arg.name}'s index reversed: what belongs at {arg.name}[k] sits at {arg.name}[{K - 1} - k]"
            )
        else:
            mapped = _kernel_taps(w, kernel) if K < w.shape[1] else None
            if mapped is None:
                continue
            taps, c = mapped
            flipped = np.where(taps >= 0, c * kernel[np.where(taps >= 0, K - 1 - taps, 0)], 0.0)
            if close(flipped, w).all() or not close(g, flipped).all():
                continue
            head = (
                f"{name} is the expected one with the kernel {kernel_arg.name} reversed: where f uses "
                f"{kernel_arg.name}[k] you use {kernel_arg.name}[{K - 1} - k]"
            )
        orientation = _orientation(kernel_arg, kernel, siblings + (w,))
        if orientation is None:  # no band of taps in any block: not a convolution
            continue
        return [Diagnosis(Kind.FLIPPED, f"{head}. {orientation}")]
    return []


def _flip_draw(
    puzzle: Puzzle, draws: tuple[Draw, ...], expected: list[Blocks], answers: tuple[Blocks, ...], order: list[int],
) -> int | None:
    """The simplest failing draw on whose first wrong block a flipped kernel is recognised, or
    None; tried only for puzzles with a second argument short enough to be a kernel."""
    if len(puzzle.wrt) < 2 or not any(len(a.shape) == 1 and 2 <= a.shape[0] <= 16 for a in puzzle.wrt):
        return None
    kernels = [i for i, a in enumerate(puzzle.args) if a in puzzle.wrt and len(a.shape) == 1 and 2 <= a.shape[0] <= 16]
    # The first draw where every argument that may be the kernel has distinct, nonzero taps
    # decides: a flip shows on every such draw. (With only some of them so, the kernel itself may
    # hold zeros, and a flip of it is not recognised.)
    for d in order:
        taps = [np.asarray(draws[d].values[i]) for i in kernels]
        if not all(np.all(t) and np.unique(t).size == t.size for t in taps):
            continue
        for k, (want, got) in enumerate(zip(expected[d], answers[d])):
            if got.shape != want.shape:
                break
            if close(got, want).all():
                continue
            out_shape, arg = _block_arg(puzzle, k)
            w = want.astype(np.float64)
            if _flip_diagnoses("", got.astype(np.float64), w, out_shape, arg, draws[d], puzzle, expected[d]):
                return d
            break  # the first wrong block is the one reported
        return None
    return None


def _orientation(kernel_arg: Arg, kernel: np.ndarray, siblings: Blocks) -> str | None:
    """Whether f flips its kernel, read off an expected block built from the kernel's taps."""
    for block in siblings:
        if block.ndim != 2:
            continue
        mapped = _kernel_taps(np.asarray(block, dtype=np.float64), kernel)
        if mapped is None:
            continue
        steps = [np.diff(row[row >= 0]) for row in mapped[0]]
        steps = [s for s in steps if s.size]
        taps = ", ".join(f"{kernel_arg.name}[{k}]" for k in range(kernel.size))
        if steps and all(np.all(s > 0) for s in steps):
            return (
                f"f does not flip the kernel (a cross-correlation, as convolution layers compute): along a row, "
                f"the inputs meet {taps} in that order; did you flip it, as np.convolve does?"
            )
        if steps and all(np.all(s < 0) for s in steps):
            return (
                f"f flips the kernel (a true convolution, as np.convolve computes): along a row, the inputs "
                f"meet {kernel_arg.name}[{kernel.size - 1}] first and {kernel_arg.name}[0] last; did you leave it "
                "unflipped?"
            )
    return None
