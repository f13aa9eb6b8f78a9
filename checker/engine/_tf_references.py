"""TensorFlow references for the indexing chapter, and the Jacobians TensorFlow computes from them.

The chapter's puzzles come from a TensorFlow notebook on differentiable array indexing (plus an
article on single-element updates and a post on `tf.gather`). Each puzzle has one function here,
in `REFERENCES`, that behaves exactly like the original, quirks included: `tf.round` rounds half
to even, `tf.math.divide_no_nan` gives `t = 0` and a zero gradient at integer indices, indices are
clipped, the 2-D lookup takes a `reduce_max`. A `_corrected` twin fixes the mistake its faithful
sibling makes. Like the notebook's, every reference is a `tf.function`: that is not only for
speed, it changes what `tape.gradient` reports (zeros instead of `None` for an input that reaches
some output of the function but not the one differentiated; see `residual_lookup`).

`jacobians` and `vjps` give what TensorFlow's own tape computes for a puzzle at one draw, and
`jacobians_of_draws` and `vjps_of_draws` at every draw of a check. Each compiles, once per puzzle
and argument shapes, one graph that runs the function and its whole tape (forward pass,
`tape.jacobian` or `tape.gradient`), and one that loops it over stacked draws: a check then makes
one call into TensorFlow, not one per draw.

This module imports TensorFlow; the rest of the package imports it lazily, and only when
TensorFlow is installed.
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import tensorflow as tf

# TensorFlow ships no type information: its tensors are `Any` to mypy, named here for reading.
Tensor = Any

_ZERO = tf.UnconnectedGradients.ZERO


# --- helpers shared by several puzzles ---------------------------------------------------------


def _interpolation(index: Tensor) -> tuple[Tensor, Tensor, Tensor]:
    """The notebook's interpolation factor: `(t, floor(index), ceil(index))`, `t = 0` at integers."""
    below = tf.math.floor(index)
    above = tf.math.ceil(index)
    # divide_no_nan, as in the notebook: at an integer index floor == ceil, and a plain division
    # would give 0/0 = NaN; this gives t = 0 with a zero gradient. (Both neighbours are then the
    # same entry, so the index gradient is 0 there, neither one-sided slope.)
    t = tf.math.divide_no_nan(index - below, above - below)
    return t, tf.cast(below, tf.int32), tf.cast(above, tf.int32)


def _spread(index: Tensor, bandwidth: int, *, swapped: bool) -> Tensor:
    """Each index as a distribution over `bandwidth` slots, shape `index.shape + (bandwidth,)`."""
    t, below, above = _interpolation(index)
    # Indices outside [0, bandwidth - 1] fall onto the nearest end slot, as in the notebook.
    below = tf.clip_by_value(below, 0, bandwidth - 1)
    above = tf.clip_by_value(above, 0, bandwidth - 1)
    t = tf.clip_by_value(t, 0.0, 1.0)[..., None]
    slots = tf.eye(bandwidth, dtype=index.dtype)
    at_below, at_above = tf.gather(slots, below), tf.gather(slots, above)
    if swapped:
        # The notebook's weighting: the slot nearer the index gets the smaller weight.
        return t * at_below + (1.0 - t) * at_above
    return (1.0 - t) * at_below + t * at_above


def _pad_to_rank(low: Tensor, rank: int) -> Tensor:
    """`low` with trailing length-1 axes up to `rank` (the notebook's `match_shapes`)."""
    return tf.reshape(low, low.shape.as_list() + [1] * (rank - low.shape.rank))


# --- the puzzles, in the chapter's order -------------------------------------------------------


def naive_lookup(arr: Tensor, index: Tensor, *, end: str = "front") -> Tensor:
    """`arr[round(index)]`; no gradient reaches the index (the cast to int cuts it). The variant
    `end="back"` counts the rounded index from the end of `arr`."""
    position = tf.cast(tf.round(index), tf.int32)
    if end == "back":
        position = arr.shape[0] - 1 - position
    return arr[position]


def linear_lookup(arr: Tensor, index: Tensor) -> Tensor:
    """The notebook's linear interpolation, with the two weights swapped."""
    t, below, above = _interpolation(index)
    return t * arr[below] + (1.0 - t) * arr[above]


def linear_lookup_corrected(arr: Tensor, index: Tensor) -> Tensor:
    """Linear interpolation between `arr[floor(index)]` and `arr[ceil(index)]`."""
    t, below, above = _interpolation(index)
    return (1.0 - t) * arr[below] + t * arr[above]


def superposition_lookup_vectored(arr: Tensor, indices: Tensor, *, mix: str = "rows") -> Tensor:
    """`sum_i indices[i] * arr[i]`; a 1-D `arr` is a column, so its result has shape `(1,)`. The
    variant `mix="columns"` weighs the columns of a 2-D `arr` instead: `sum_j indices[j] * arr[:, j]`."""
    if mix == "columns":
        return tf.reduce_sum(arr * indices[None, :], axis=1)
    if arr.shape.rank == 1:
        arr = arr[:, None]
    # Broadcasting aligns trailing axes: right for one distribution over arr's rows, but a
    # stack of distributions (bulk_superposition_lookup) then meets arr along the wrong axis.
    return tf.reduce_sum(arr * indices[..., None], axis=0)


def superposition_lookup_vectored_1d(arr: Tensor, indices: Tensor) -> Tensor:
    """`superposition_lookup_vectored` on a 1-D array: `[indices . arr]`, shape `(1,)`."""
    return superposition_lookup_vectored(arr, indices)


def bandwidthify(index: Tensor, bandwidth: int) -> Tensor:
    """The notebook's index-to-distribution, weights swapped like `linear_lookup`'s."""
    return _spread(index, bandwidth, swapped=True)


def bandwidthify_corrected(index: Tensor, bandwidth: int) -> Tensor:
    """An index as weights `1 - t` on its floor and `t` on its ceiling."""
    return _spread(index, bandwidth, swapped=False)


def superposition_lookup(arr: Tensor, index: Tensor) -> Tensor:
    """`superposition_lookup_vectored(arr, bandwidthify(index))`, shape `(1,)`."""
    return superposition_lookup_vectored(arr, bandwidthify(index, arr.shape[0]))


def superposition_lookup_corrected(arr: Tensor, index: Tensor) -> Tensor:
    """`superposition_lookup` with the corrected weights."""
    return superposition_lookup_vectored(arr, bandwidthify_corrected(index, arr.shape[0]))


def bulk_bandwidthify(indices: Tensor, bandwidth: int) -> Tensor:
    """One row per index, each `bandwidthify(indices[r], bandwidth)`."""
    # _spread works elementwise: the notebook's loop over unstacked rows gives the same values
    # and the same gradients.
    return _spread(indices, bandwidth, swapped=True)


def bulk_bandwidthify_corrected(indices: Tensor, bandwidth: int) -> Tensor:
    """One row per index, each `bandwidthify_corrected(indices[r], bandwidth)`."""
    return _spread(indices, bandwidth, swapped=False)


def bulk_superposition_lookup(arr: Tensor, indices: Tensor) -> Tensor:
    """The notebook's bulk lookup, shape `(n, 1)`: row `b` is `arr[b] * sum_r dists[r, b]`."""
    return superposition_lookup_vectored(arr, bulk_bandwidthify(indices, arr.shape[0]))


def bulk_superposition_lookup_corrected(arr: Tensor, indices: Tensor) -> Tensor:
    """One lookup per index: `bulk_bandwidthify_corrected(indices) @ arr`, shape `(n,)`."""
    return tf.linalg.matvec(bulk_bandwidthify_corrected(indices, arr.shape[0]), arr)


def residual_lookup(arr: Tensor, index: Tensor, *, rounding: str = "round") -> tuple[Tensor, Tensor]:
    """`(arr[round(index)], index - round(index))`; the variants round with `floor` or `ceil`."""
    nearest = {"round": tf.round, "floor": tf.math.floor, "ceil": tf.math.ceil}[rounding](index)
    return arr[tf.cast(nearest, tf.int32)], index - nearest


def assign_index(arr: Tensor, index: Tensor, element: Tensor) -> Tensor:
    """`arr` with row `index` (an int) replaced by `element`, through a one-hot mask."""
    rows = arr.shape[0]
    chosen = tf.eye(rows, dtype=arr.dtype)[index][:, None]
    # The notebook tiles the element into arr's shape rather than broadcasting it.
    tiled = tf.reshape(tf.tile(element, [rows]), arr.shape)
    return arr * (1.0 - chosen) + tiled * chosen


def assign_index_vectored(arr: Tensor, index: Tensor, element: Tensor) -> Tensor:
    """Soft row assignment: row `r` becomes `(1 - index[r]) * arr[r] + index[r] * element`."""
    rows = arr.shape[0]
    weight = index[:, None]
    tiled = tf.reshape(tf.tile(element, [rows]), arr.shape)
    return arr * (1.0 - weight) + tiled * weight


def broadcast_multiply(x: Tensor, y: Tensor) -> Tensor:
    """`x * y` with the lower-rank one padded by trailing (not leading) length-1 axes."""
    high, low = (x, y) if x.shape.rank > y.shape.rank else (y, x)
    if high.shape.as_list()[: low.shape.rank] != low.shape.as_list():
        raise ValueError(f"broadcast_multiply: shapes {x.shape} and {y.shape} share no leading axes")
    return high * _pad_to_rank(low, high.shape.rank)


def tensor_lookup_2d(arr: Tensor, x_index: Tensor, y_index: Tensor) -> Tensor:
    """The notebook's 2-D lookup: the largest masked entry, 0 rather than a negative cell."""
    # reduce_max picks the cell only when it beats the zeros that the mask leaves elsewhere; its
    # gradient is shared equally among tied maxima (all those zeros, for a negative cell).
    masked = broadcast_multiply(tf.tensordot(x_index, y_index, axes=0), arr)
    return tf.reduce_max(masked, axis=[0, 1])


def tensor_lookup_2d_corrected(arr: Tensor, x_index: Tensor, y_index: Tensor) -> Tensor:
    """`sum_{i,j} x_index[i] * y_index[j] * arr[i, j]`: the cell itself for one-hot indices."""
    return tf.einsum("i,j,ijc->c", x_index, y_index, arr)


def tensor_write_2d(arr: Tensor, element: Tensor, x_index: Tensor, y_index: Tensor) -> Tensor:
    """`arr` with the cell `(x, y)` softly overwritten by `element`."""
    mask = _pad_to_rank(tf.tensordot(x_index, y_index, axes=0), arr.shape.rank)
    tiled = tf.tile(tf.reshape(element, [1, 1, -1]), [arr.shape[0], arr.shape[1], 1])
    return (1.0 - mask) * arr + mask * tiled


@functools.cache
def _asymmetric(push: float) -> Callable[..., Any]:
    """The notebook's asymmetric lookup: a hard forward pass and a hand-written backward pass,
    whose step on `k` is `push` times |upstream| (1 in the notebook)."""

    def forward(v: Tensor, k: Tensor) -> tuple[Tensor, Callable[[Tensor], tuple[Tensor, Tensor]]]:
        picked = tf.gather(v, tf.argmax(k, axis=-1), batch_dims=1)

        def backward(upstream: Tensor) -> tuple[Tensor, Tensor]:
            """`(dv, dk)` for upstream gradient `upstream`, shape `(batch,)`."""
            # The backward pass guesses the value the loss wants (one gradient step from the
            # result, exact for an l2 loss), then pushes probability towards the entry of v
            # nearest to it.
            wanted = picked - upstream
            nearest = tf.argmin(tf.math.squared_difference(v, wanted[:, None]), axis=-1)
            signs = 1.0 - 2.0 * tf.one_hot(nearest, tf.shape(k)[-1], dtype=k.dtype)
            if push != 1:
                signs = push * signs
            # dv is the gradient of the soft lookup sum_i v_i k_i, not of the hard forward pass.
            return upstream[:, None] * k, tf.abs(upstream)[:, None] * signs

        return picked, backward

    return tf.custom_gradient(forward)  # type: ignore[no-any-return]


def asymmetrical_vectored_lookup(v: Tensor, k: Tensor, *, push: float = 1) -> Tensor:
    """The asymmetric lookup's forward pass, with its custom backward pass (see `_asymmetric`);
    the variant `push` scales the backward pass's step on `k`."""
    return _asymmetric(float(push))(v, k)


def scatter_update(vector: Tensor, index: Tensor, target: Tensor) -> Tensor:
    """`vector` with entry `index` replaced by `target`, through a scattered one-hot mask."""
    mask = tf.tensor_scatter_nd_update(
        tf.zeros_like(vector), tf.reshape(index, [1, 1]), tf.ones([1], dtype=vector.dtype)
    )
    return vector * (1.0 - mask) + mask * target


def gather(embeddings: Tensor, idx: Tensor) -> Tensor:
    """`embeddings[idx]`: one embedding row per index, shape `idx.shape + (width,)`."""
    return tf.gather(embeddings, idx)


def gather_vjp(embeddings: Tensor, idx: Tensor) -> Tensor:
    """The forward pass of `gather`; the puzzle asks for its backward pass (via `vjps`)."""
    return tf.gather(embeddings, idx)


# Puzzle name -> its TensorFlow function, arguments in the puzzle's order. Integer arguments are
# int32 tensors, `bandwidth` a Python int. Wrapped in tf.function like the notebook's functions:
# a call is then one op on the tape, which reports zeros (not None) for an input connected to
# another output of the call, as the notebook's residual_lookup prints.
REFERENCES: dict[str, Callable[..., Any]] = {
    name: tf.function(function, autograph=False)
    for name, function in {
        "naive_lookup": naive_lookup,
        "linear_lookup": linear_lookup,
        "linear_lookup_corrected": linear_lookup_corrected,
        "superposition_lookup_vectored": superposition_lookup_vectored,
        "superposition_lookup_vectored_1d": superposition_lookup_vectored_1d,
        "bandwidthify": bandwidthify,
        "bandwidthify_corrected": bandwidthify_corrected,
        "superposition_lookup": superposition_lookup,
        "superposition_lookup_corrected": superposition_lookup_corrected,
        "bulk_bandwidthify": bulk_bandwidthify,
        "bulk_bandwidthify_corrected": bulk_bandwidthify_corrected,
        "bulk_superposition_lookup": bulk_superposition_lookup,
        "bulk_superposition_lookup_corrected": bulk_superposition_lookup_corrected,
        "residual_lookup": residual_lookup,
        "assign_index": assign_index,
        "assign_index_vectored": assign_index_vectored,
        "broadcast_multiply": broadcast_multiply,
        "tensor_lookup_2d": tensor_lookup_2d,
        "tensor_lookup_2d_corrected": tensor_lookup_2d_corrected,
        "tensor_write_2d": tensor_write_2d,
        "asymmetrical_vectored_lookup": asymmetrical_vectored_lookup,
        "scatter_update": scatter_update,
        "gather": gather,
        "gather_vjp": gather_vjp,
    }.items()
}


# --- expected derivatives ----------------------------------------------------------------------


def jacobians(name: str, args: Sequence[np.ndarray | int], wrt: Sequence[int], params: Params = ()) -> list[np.ndarray]:
    """TensorFlow's Jacobians of puzzle `name` at `args`, with respect to the arguments `wrt`.

    Args:
        name: a key of `REFERENCES`.
        args: the arguments in the puzzle's order: arrays (floats are computed in float64,
            integers in int32) or Python ints for static arguments (`bandwidth`).
        wrt: positions in `args` of float arguments.
        params: a variant's choices, `(name, value)` pairs, passed to the function by keyword
            (none for the canonical puzzle).

    Returns:
        One block per output of the function (two for `residual_lookup`) and, within it, per
        position in `wrt`: `tape.jacobian(output, args[i])`, shape `output.shape + args[i].shape`,
        float64, zeros where the output does not depend on the argument.
    """
    return [block[0] for block in jacobians_of_draws(name, [args], wrt, params)]


def jacobians_of_draws(
    name: str, draws: Sequence[Sequence[np.ndarray | int]], wrt: Sequence[int], params: Params = ()
) -> list[np.ndarray]:
    """`jacobians` at every draw of `draws` (arguments of one shape, the same static ints), in one
    call of one graph: each block with the draw index first."""
    statics, stacked = _stacked(name, draws, wrt)
    keywords = _keywords(name, params)
    program = _over_draws(_jacobian_program(name, tuple(wrt), statics, _signature(stacked, 1), keywords))
    return [_scaled(name, params) * np.asarray(block, dtype=np.float64) for block in program(*stacked)]


def vjps(
    name: str, args: Sequence[np.ndarray | int], wrt: Sequence[int], g: np.ndarray, params: Params = ()
) -> list[np.ndarray]:
    """TensorFlow's vector-Jacobian products of puzzle `name` at `args`, upstream gradient `g`.

    Args:
        name: a key of `REFERENCES`; the function must have one output.
        args: as for `jacobians`.
        wrt: positions in `args` of float arguments.
        g: the upstream gradient, shape of the output.
        params: as for `jacobians`.

    Returns:
        Per position in `wrt`: `tape.gradient(output, args[i], output_gradients=g)`, shape
        `args[i].shape`, float64 and dense (`tf.gather`'s sparse gradient is scattered out).
    """
    return [block[0] for block in vjps_of_draws(name, [args], wrt, [g], params)]


def vjps_of_draws(
    name: str,
    draws: Sequence[Sequence[np.ndarray | int]],
    wrt: Sequence[int],
    upstreams: Sequence[np.ndarray],
    params: Params = (),
) -> list[np.ndarray]:
    """`vjps` at every draw of `draws`, the upstream gradient of each in `upstreams`, in one call of
    one graph: each block with the draw index first."""
    statics, stacked = _stacked(name, draws, wrt)
    upstream = np.stack([np.asarray(g, dtype=np.float64) for g in upstreams])
    keywords = _keywords(name, params)
    program = _over_draws(
        _vjp_program(name, tuple(wrt), statics, _signature(stacked, 1), upstream.shape[1:], keywords)
    )
    return [_scaled(name, params) * np.asarray(block, dtype=np.float64) for block in program(*stacked, upstream)]


# A variant's choices, as (parameter name, value): keyword arguments of the reference function.
Params = tuple[tuple[str, Any], ...]
# The static arguments, as (position, value): fixed when a program is traced.
Statics = tuple[tuple[int, int], ...]
# The array arguments, as (shape, dtype name): a program is traced for these.
Signature = tuple[tuple[tuple[int, ...], str], ...]


def _split(name: str, args: Sequence[np.ndarray | int], wrt: Sequence[int]) -> tuple[Statics, list[np.ndarray]]:
    """Static Python ints apart from arrays (float64 or int32); checks `name` and `wrt`."""
    if name not in REFERENCES:
        raise KeyError(f"no TensorFlow reference for puzzle {name!r}; known: {', '.join(REFERENCES)}")
    statics: list[tuple[int, int]] = []
    arrays: list[np.ndarray] = []
    for position, arg in enumerate(args):
        # A Python int is a static argument; a numpy integer scalar is a (0-d) integer argument.
        if isinstance(arg, int) and not isinstance(arg, bool):
            statics.append((position, arg))
            continue
        array = np.asarray(arg)
        integral = np.issubdtype(array.dtype, np.integer) or array.dtype == np.bool_
        if integral and position in wrt:
            raise ValueError(
                f"{name}: argument {position} is an integer array, with no derivative: leave it out of wrt"
            )
        arrays.append(array.astype(np.int32 if integral else np.float64, copy=False))
    static_positions = {position for position, _ in statics}
    for position in wrt:
        if not 0 <= position < len(args) or position in static_positions:
            raise ValueError(
                f"{name}: wrt holds {position}, which is not the position of an array among the {len(args)} "
                "arguments given"
            )
    return tuple(statics), arrays


def _stacked(
    name: str, draws: Sequence[Sequence[np.ndarray | int]], wrt: Sequence[int]
) -> tuple[Statics, list[np.ndarray]]:
    """Each array argument stacked over `draws`, the draw index first; the static ints, which every
    draw must share (a graph is traced for them)."""
    if not draws:
        raise ValueError(f"{name}: no draws to compute at")
    split = [_split(name, args, wrt) for args in draws]
    statics = split[0][0]
    if any(other != statics for other, _ in split):
        raise ValueError(f"{name}: the draws have different static arguments; compute them apart")
    return statics, [np.stack(arrays) for arrays in zip(*(arrays for _, arrays in split))]


@functools.cache
def _keywords(name: str, params: Params) -> Params:
    """The choices the reference takes as keyword-only arguments (`*, end="front"`); it follows
    any other parameter (a size, a static argument) through its arguments."""
    function: Any = REFERENCES[name]  # a tf.function: the Python function is its `python_function`
    accepted = inspect.signature(function.python_function).parameters
    return tuple(
        (key, value)
        for key, value in params
        if key in accepted and accepted[key].kind is inspect.Parameter.KEYWORD_ONLY
    )


def _scaled(name: str, params: Params) -> float:
    """A variant's `scale` multiplies f's output (`return 2 * (...)` in the catalog), so it
    multiplies every derivative too (the chain rule); a reference that takes `scale` itself
    applies it in its own graph instead."""
    chosen = dict(params)
    if "scale" not in chosen or "scale" in dict(_keywords(name, params)):
        return 1.0
    return float(chosen["scale"])


def _signature(arrays: Sequence[np.ndarray], leading: int = 0) -> Signature:
    """The shapes and dtypes a program is compiled for, past the first `leading` axes."""
    return tuple((array.shape[leading:], array.dtype.name) for array in arrays)


def _specs(signature: Signature) -> list[Any]:
    """`tf.TensorSpec`s for a signature."""
    return [tf.TensorSpec(shape, dtype) for shape, dtype in signature]


def _merged(statics: Statics, tensors: Sequence[Tensor]) -> list[Any]:
    """The full argument list: static ints back in their positions among the tensors."""
    merged: list[Any] = list(tensors)
    for position, value in statics:
        merged.insert(position, value)
    return merged


def _compiled(program: Callable[..., Any], specs: list[Any]) -> Callable[..., Any]:
    """`program` traced now into a graph for arguments `specs`; calling it only runs the graph."""
    # A concrete function, called directly, skips tf.function's argument matching and its
    # retracing detector, which counts the traces of every puzzle's program together (they share
    # their code) and would warn of "excessive retracing" after a few puzzles.
    # Tracing's Python warnings are silenced: vectorising tf.gather's sparse gradient warns that
    # densifying it "may make it slow", true of big tables, not of the puzzles', and noise in a
    # learner's report.
    logger = logging.getLogger("tensorflow")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        return tf.function(program, autograph=False).get_concrete_function(*specs)  # type: ignore[no-any-return]
    finally:
        logger.setLevel(level)


@functools.cache
def _over_draws(program: Any) -> Callable[..., Any]:
    """`program` (a concrete function of one draw) mapped over draws stacked on a first axis, in
    one graph: a learner's check asks TensorFlow for hundreds of draws, and calling a graph from
    Python costs about as much as running one of these small ones."""
    inputs = [tf.TensorSpec([None, *t.shape], t.dtype) for t in program.structured_input_signature[0]]
    outputs = [tf.TensorSpec(t.shape, t.dtype) for t in program.structured_outputs]

    def mapped(*stacked: Tensor) -> Any:
        """`program` at each draw, in a loop of the graph's own (`tf.map_fn`)."""
        return tf.map_fn(lambda one: program(*one), tuple(stacked), fn_output_signature=outputs)

    return _compiled(mapped, inputs)


@functools.cache
def _jacobian_program(
    name: str, wrt: tuple[int, ...], statics: Statics, signature: Signature, params: Params = ()
) -> Callable[..., Any]:
    """One graph computing every Jacobian block of a puzzle, traced when first asked for."""
    function = REFERENCES[name]

    def program(*tensors: Tensor) -> list[Tensor]:
        """The forward pass on a tape, then the Jacobian of every output against every argument."""
        args = _merged(statics, tensors)
        with tf.GradientTape() as tape:
            for position in wrt:
                tape.watch(args[position])
            result = function(*args, **dict(params))
            outputs = result if isinstance(result, (tuple, list)) else (result,)
            # One Jacobian of all outputs, flattened end to end (on the tape, so that it is
            # differentiated through), against all arguments at once: one vectorised backward
            # pass instead of one per block; each block is then cut out and reshaped.
            flat = tf.concat([tf.reshape(output, [-1]) for output in outputs], axis=0)
        rows = tape.jacobian(flat, [args[position] for position in wrt], unconnected_gradients=_ZERO)
        blocks = []
        start = 0
        for output in outputs:
            size = output.shape.num_elements()
            for position, jac in zip(wrt, rows):
                shape = output.shape.concatenate(args[position].shape)
                blocks.append(tf.reshape(jac[start : start + size], shape))
            start += size
        return blocks

    return _compiled(program, _specs(signature))


@functools.cache
def _vjp_program(
    name: str,
    wrt: tuple[int, ...],
    statics: Statics,
    signature: Signature,
    upstream: tuple[int, ...],
    params: Params = (),
) -> Callable[..., Any]:
    """One graph computing a puzzle's vector-Jacobian products, traced when first asked for."""
    function = REFERENCES[name]

    def program(*tensors: Tensor) -> list[Tensor]:
        """The forward pass on a tape, then `tape.gradient` with the upstream gradient."""
        *inputs, g = tensors
        args = _merged(statics, inputs)
        with tf.GradientTape() as tape:
            for position in wrt:
                tape.watch(args[position])
            output = function(*args, **dict(params))
        if isinstance(output, (tuple, list)):
            raise ValueError(f"{name} has {len(output)} outputs; vjps takes a one-output puzzle")
        grads = tape.gradient(
            output, [args[position] for position in wrt], output_gradients=g, unconnected_gradients=_ZERO
        )
        # tf.gather's gradient is an IndexedSlices (rows and their indices): make it dense.
        return [tf.convert_to_tensor(grad) for grad in grads]

    return _compiled(program, [*_specs(signature), tf.TensorSpec(upstream, tf.float64)])
