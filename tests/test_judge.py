"""The judge: never a pass for a wrong answer, and a diagnosis in the learner's terms.

The wording of the important messages is pinned here: they are the product.
"""

from __future__ import annotations

import functools
import re
import warnings

import jax
import jax.numpy as jnp
import numpy as np
from hypothesis import given, settings, strategies as st

from checker import Kind, Status, check_answer
from checker.engine._catalog import get
from checker.engine._judge import judge
from checker.engine._sampling import draws
from checker.engine._tolerance import close

I10 = np.arange(10)
O10 = I10[:, None]


def cumsum_jac(x):  # type: ignore[no-untyped-def]
    return (I10 <= O10) / 20


def test_a_right_answer_passes_with_the_draw_count_and_seed() -> None:
    verdict = check_answer("cumsum", cumsum_jac, seed=3)
    assert verdict.status is Status.PASS
    count = len(draws(get("cumsum"), 3))  # type: ignore[arg-type]
    assert verdict.message == f"correct on all {count} draws (seed 3)"
    assert verdict.draws >= 20


def test_gradient_instead_of_jacobian_is_named() -> None:
    verdict = check_answer("prod", lambda x: jnp.prod(x) / x)
    assert verdict.status is Status.FAIL
    assert Kind.GRADIENT in verdict.kinds()
    assert verdict.diagnoses[0].message == (
        "the Jacobian: got shape (10,), expected (1, 10): one row per output, one column per input"
        " - did you return a gradient instead of a Jacobian?"
    )


def test_values_right_if_broadcast_is_named_and_still_fails() -> None:
    verdict = check_answer("mean", lambda x: jnp.ones(10) / 10)
    assert verdict.status is Status.FAIL
    assert verdict.kinds()[:2] == (Kind.GRADIENT, Kind.BROADCAST)
    assert "would be right if broadcast to the full shape" in verdict.diagnoses[1].message


def test_swapped_axes_shape_is_named_transposed() -> None:
    verdict = check_answer("index", lambda x: (np.arange(25)[:, None] == np.arange(15) + 10) * 1.0)
    assert verdict.kinds() == (Kind.TRANSPOSED,)
    assert verdict.diagnoses[0].message == (
        "the Jacobian: got shape (25, 15), expected (15, 25): your array has the input's axes first; "
        "a Jacobian has the output's axes (15,) first, then x's axes (25,) (your values are right once transposed)"
    )


def test_transposed_values_in_a_square_jacobian() -> None:
    verdict = check_answer("cumsum", lambda x: (I10 >= O10) / 20)
    assert verdict.kinds()[0] is Kind.TRANSPOSED
    assert verdict.message.startswith("the Jacobian is transposed")


def test_wrong_sign() -> None:
    verdict = check_answer("cos", lambda x: jnp.sin(x)[:, None])
    assert verdict.kinds()[0] is Kind.SIGN
    assert (
        verdict.diagnoses[0].message
        == "the Jacobian has the wrong sign: every entry is the negative of the expected one"
    )


def test_constant_factor_is_named_with_the_likely_cause() -> None:
    missing = check_answer("cumsum", lambda x: (I10 <= O10) * 1.0)
    assert missing.kinds()[0] is Kind.FACTOR
    assert "20 times the expected one; is a division by 20 missing?" in missing.message
    twice = check_answer("cumsum", lambda x: (I10 <= O10) / 400)
    assert "1/20 of the expected one; did you divide by 20 once too often?" in twice.message


def test_shift_by_one_is_named() -> None:
    verdict = check_answer("index", lambda x: (np.arange(25) == np.arange(15)[:, None] + 9) * 1.0)
    assert verdict.kinds()[0] is Kind.SHIFTED
    assert "shifted by one along the index of x" in verdict.message


def test_nan_at_a_zero_entry_is_a_zero_division() -> None:
    verdict = check_answer("prod", lambda x: (jnp.prod(x) / x)[None, :])
    assert verdict.status is Status.FAIL
    assert verdict.kinds()[0] is Kind.ZERO_DIVISION
    # The simplest draw that shows it: two zeros among plain entries (both entries NaN).
    assert verdict.failure is not None and verdict.failure.draw_label == "two zero entries"
    assert "at an input with a zero entry (x[" in verdict.message


def test_wrong_cells_are_listed_with_output_and_input_indices() -> None:
    def relu_jac(x):  # type: ignore[no-untyped-def]
        return (I10 == O10) * (x > 0) * (I10 != 3)  # d f[3] / d x[3] is always 0

    verdict = check_answer("relu", relu_jac)
    cells = [d for d in verdict.diagnoses if d.kind is Kind.CELLS]
    assert cells and cells[0].message.startswith("the Jacobian is wrong on ")
    assert "d f[" in cells[0].message and "/ d x[" in cells[0].message
    failure = verdict.failure
    assert failure is not None and failure.wrong_count == int(failure.wrong.sum()) == 1  # type: ignore[union-attr]
    assert "d f[3] / d x[3]: yours 0, expected 1" in cells[0].message


def test_several_arguments_name_the_block_that_is_wrong() -> None:
    verdict = check_answer("mul", lambda x, y: ((I10 == O10) * y, (I10 == O10) * y))
    assert verdict.status is Status.FAIL
    assert verdict.failure is not None and verdict.failure.block == "d f / d y"


def test_the_exposing_draw_is_reported() -> None:
    verdict = check_answer("neg", lambda x: -1.0 * (I10 == O10) * (jnp.abs(x) < 50))
    assert verdict.status is Status.FAIL
    # Wrong wherever |x| >= 50; of those draws the simplest is shown: two zeros among large entries.
    assert verdict.failure is not None and verdict.failure.draw_label == "two zeros among large magnitudes"
    assert not verdict.failure.everywhere  # right on the draws with small entries
    assert verdict.message.endswith("(on the draw with two zeros among large magnitudes)")


def test_of_many_exposing_draws_the_simplest_is_shown() -> None:
    # Wrong on every draw: the report shows a built draw with zeros, never a random one.
    verdict = check_answer("neg", lambda x: np.eye(10))
    assert verdict.failure is not None and verdict.failure.draw_label == "two zero entries"
    # No draw in particular exposes a mistake made on every draw, so none is named as if it did.
    assert verdict.failure.everywhere
    assert verdict.message.endswith(f"(on all {verdict.draws} draws)")


def test_simplicity_orders_built_draws_zeros_integers_and_small_numbers_first() -> None:
    from checker.engine._judge import simplicity
    from checker.engine._sampling import Draw

    def key(label: str, *values: float) -> tuple[float, ...]:
        return simplicity(Draw(label, (np.array(values),)), 0)

    random = key("random draw 1", 0.3, -0.2, 0.7)
    zero = key("zero entry", 0.0, -0.2, 0.7)
    assert zero < random  # a built draw first, even against a random one with fewer distinct values
    assert key("zero entry", 0.0, 0.0, 0.7) < zero  # fewer nonzero entries
    assert key("integer draw 1", 0.0, 1.0, 2.0) < key("integer draw 2", 0.0, 1.5, 2.0)  # integers first
    assert key("equal entries", 2.0, 2.0, 2.0) < key("integer draw 3", 2.0, 3.0, 1.0)  # fewer distinct values
    assert key("small", 3.0, 3.0, 3.0) < key("huge", 3000.0, 3000.0, 3000.0)  # small integers before large
    assert key("near one", 0.5, 0.5, 0.5) < key("tiny", 1e-7, 1e-7, 1e-7)  # magnitudes near 1 first


def test_nan_and_inf_never_pass() -> None:
    e = np.ones((2, 2), dtype=np.float32)
    for bad in (np.nan, np.inf, -np.inf):
        a = e.copy()
        a[0, 0] = bad
        assert not close(a, e).all()


@functools.cache
def _exact(name: str):  # type: ignore[no-untyped-def]
    """The puzzle, its seed-0 draws and jax.jacfwd's blocks on each (computed once per puzzle)."""
    puzzle = get(name)
    assert puzzle is not None
    batch = draws(puzzle, 0)
    expected = [
        tuple(np.asarray(b) for b in jax.jacfwd(puzzle.f, puzzle.argnums)(*d.values))
        if isinstance(puzzle.argnums, tuple)
        else (np.asarray(jax.jacfwd(puzzle.f, puzzle.argnums)(*d.values)),)
        for d in batch
    ]
    return puzzle, batch, expected


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(["cumsum", "neg", "mean_reduce", "broadcast", "conv", "matmul", "sort", "prod"]),
    cell=st.integers(min_value=0, max_value=10_000),
    delta=st.sampled_from([-1.0, -1e-2, 1e-2, 0.5, 3.0]),
)
def test_any_entry_off_by_more_than_tolerance_fails(name: str, cell: int, delta: float) -> None:
    """Zero false passes: perturb one entry of the exact Jacobian on one draw; the verdict is fail."""
    puzzle, batch, expected = _exact(name)
    answers = [tuple(b.copy() for b in blocks) for blocks in expected]
    target = answers[cell % len(answers)]
    block = target[cell % len(target)]
    flat = block.reshape(-1)
    scale = max(1.0, float(np.max(np.abs(flat))))
    flat[cell % flat.size] += delta * scale
    verdict = judge(puzzle, batch, expected, tuple(answers), 0)
    assert verdict.status is Status.FAIL
    assert judge(puzzle, batch, expected, tuple(expected), 0).status is Status.PASS


def test_input_axes_first_is_transposed_even_when_the_shape_happens_to_match() -> None:
    # d f / d y for broadcast: expected [a, b, k]; (4,) + (4, 4) has the same shape as (4, 4) + (4,).
    def jac(x, y):  # type: ignore[no-untyped-def]
        a, b, c, d = np.ix_(*[np.arange(4)] * 4)
        dx = ((a == c) & (b == d)) * y[None, :, None, None]
        k, a3, b3 = np.ix_(np.arange(4), np.arange(4), np.arange(4))
        return dx, (b3 == k) * x[None, :, :]

    verdict = check_answer("broadcast", jac)
    assert verdict.failure is not None and verdict.failure.block == "d f / d y"
    assert verdict.kinds()[0] is Kind.TRANSPOSED


def test_a_one_based_index_is_a_shift_even_past_the_edge() -> None:
    verdict = check_answer("repeat_scale", lambda x: np.arange(1, 11)[:, None] / 10)
    assert verdict.kinds()[0] is Kind.SHIFTED
    assert "shifted by one along the output index" in verdict.message


def test_a_constant_jacobian_wrong_on_one_edge_is_not_called_shifted() -> None:
    def jac(x):  # type: ignore[no-untyped-def]
        j = np.ones((1, 10)) / 10
        j[0, 9] = 0.5
        return j

    assert Kind.SHIFTED not in check_answer("mean", jac).kinds()


def test_prod_answers_that_zero_the_entry_at_a_zero_input_fail_on_every_seed() -> None:
    """An absolute tolerance floor of 1e-5 would pass these on 9 of 40 seeds."""

    def zeroed(x):  # type: ignore[no-untyped-def]
        return jnp.where(x == 0, 0.0, jnp.prod(x) / jnp.where(x == 0, 1.0, x))[None, :]

    def nan_to_num(x):  # type: ignore[no-untyped-def]
        return jnp.nan_to_num(jnp.prod(x) / x)[None, :]

    for seed in range(30):
        for wrong in (zeroed, nan_to_num):
            verdict = check_answer("prod", wrong, seed=seed)
            assert verdict.status is Status.FAIL, (seed, wrong.__name__)
            assert verdict.failure is not None and "zero" in verdict.failure.draw_label


def test_a_longdouble_answer_is_judged_at_float64_tolerance() -> None:
    # Judged by the float32 rule, an np.longdouble answer off by 1e-6 relative would pass.
    from checker.engine._tolerance import TOLERANCES, tolerance

    wide = np.dtype(np.longdouble)
    assert tolerance(wide) == TOLERANCES["float64"]
    off = check_answer("cumsum", lambda x: ((I10 <= O10) / 20 * (1 + 1e-6)).astype(np.longdouble))
    assert off.status is Status.FAIL
    exact = check_answer("cumsum", lambda x: ((I10 <= O10) / 20).astype(np.longdouble))
    assert exact.status is Status.PASS


def test_a_draws_own_atol_loosens_its_blocks_and_no_others() -> None:
    # Draw.atol: a cancelling draw compares to CANCELLING_ATOL of each block's largest entry.
    from checker.engine._tolerance import CANCELLING_ATOL, failing_draws

    want = np.array([1.0, 1e-9])
    off = want + np.array([0.0, 1e-8])  # 1e-8 of the block's largest entry, at its small entry
    assert not close(off, want).all() and close(off, want, CANCELLING_ATOL).all()
    assert not close(want + np.array([0.0, 1e-4]), want, CANCELLING_ATOL).all()
    stack = [(off,), (off,)]
    assert failing_draws(stack, [(want,), (want,)]) == [0, 1]
    assert failing_draws(stack, [(want,), (want,)], [CANCELLING_ATOL, 0.0]) == [1]


def test_attentions_cancelling_draws_are_labelled_and_loosened_and_the_others_are_not() -> None:
    from checker.engine._tolerance import CANCELLING_ATOL

    batch = draws(get("attention"), 0)
    cancelling = [d for d in batch if "where the Jacobian cancels" in d.label]
    spreads = sum(len(a.cancelling_spreads) for a in get("attention").args)  # type: ignore[union-attr]
    assert {d.label.split(":")[0] for d in cancelling} == {"k", "v"} and len(cancelling) == 3 * spreads
    assert all(d.atol == CANCELLING_ATOL and f"compared to {CANCELLING_ATOL:g}" in d.label for d in cancelling)
    assert all(d.atol == 0.0 for d in batch if d not in cancelling)


def test_nan_from_a_mask_made_of_the_scores_values_is_named_as_such() -> None:
    # Red team RT33's A2: `scores == 0` masked a whole row where a row of q is 0, and the NaN was
    # told "does your formula divide by an input?".
    from pathlib import Path

    from checker import check_file

    verdict = check_file("attention", Path(__file__).parent / "corpus/layers/attention/mask_from_zero_scores.py")
    label = verdict.failure.draw_label  # type: ignore[union-attr]
    assert verdict.status is Status.FAIL and ("all zeros" in label or "every entry 0" in label)
    assert "a mask made from the scores' values (`scores == 0`)" in verdict.message
    assert "divide by an input" not in verdict.message


def _snapping_lookup(eps: float):  # type: ignore[no-untyped-def]
    # linear_lookup's Jacobian, but an index within eps of an integer is taken as that integer.
    i5 = np.arange(5)

    def jac(arr, index):  # type: ignore[no-untyped-def]
        r = np.round(index)
        whole = np.abs(index - r) < eps
        lo, hi = np.where(whole, r, np.floor(index)), np.where(whole, r, np.ceil(index))
        t = np.where(whole, 0.0, index - lo)
        i1, i2 = lo.astype(int), hi.astype(int)
        return t * (i5 == i1) + (1 - t) * (i5 == i2), np.where(whole, 0.0, arr[i1] - arr[i2])

    return jac


def test_snapping_a_nearly_integer_index_is_named_not_an_off_by_one() -> None:
    # A 1e-13 tolerance on "is the index an integer" is snapping, not "shifted by one ... check
    # your index arithmetic for an off-by-one".
    verdict = check_answer("linear_lookup", _snapping_lookup(1e-13))
    assert verdict.status is Status.FAIL
    assert verdict.kinds()[0] is Kind.NEAR_LATTICE and Kind.SHIFTED not in verdict.kinds()
    assert "off-by-one" not in verdict.message
    assert verdict.diagnoses[0].message.startswith(
        "d f / d arr is wrong only where an index is within 1e-14 of an integer without being on it "
        "(here 4.4e-16 away), "
        "and right exactly on integers and farther from them: does your answer treat an index that is nearly an "
        "integer as an integer (a tolerance such as abs(x - round(x)) < eps, or np.isclose)"
    )
    wider = check_answer("linear_lookup", _snapping_lookup(1e-4))
    assert wider.kinds()[0] is Kind.NEAR_LATTICE and "within 0.0001 of an integer" in wider.message


def test_a_hand_rolled_round_half_to_even_is_told_that_x_plus_a_half_rounds_up() -> None:
    # Red team RT36: halves to the even neighbour, the rest floor(x + 0.5). Wrong only 1 ulp below
    # k + 0.5, where x + 0.5 rounds up in float64: no tolerance in the answer to blame.
    i5 = np.arange(5)

    def jac(arr, index):  # type: ignore[no-untyped-def]
        fl = jnp.floor(index)
        rounded = jnp.where(index - fl == 0.5, fl + jnp.mod(fl, 2), jnp.floor(index + 0.5))
        return (1.0 * (i5 == rounded), jnp.zeros(())), (jnp.zeros(5), jnp.ones(()))

    verdict = check_answer("residual_lookup", jac)
    assert verdict.kinds()[0] is Kind.NEAR_LATTICE
    assert "does it round with floor(x + 0.5)? Just below k + 0.5, x + 0.5 itself rounds up" in verdict.message
    tolerant = check_answer("linear_lookup", _snapping_lookup(1e-4))  # far from the ulps: no such advice
    assert "floor(x + 0.5)" not in tolerant.message


def test_a_real_off_by_one_in_a_lookup_is_still_shifted() -> None:
    i5 = np.arange(5)

    def jac(arr, index):  # type: ignore[no-untyped-def]
        lo, hi = np.floor(index), np.ceil(index)
        t = np.where(lo == hi, 0.0, index - lo)
        i1, i2 = lo.astype(int), hi.astype(int)
        return t * (i5 == i1 + 1) + (1 - t) * (i5 == i2 + 1), np.where(lo == hi, 0.0, arr[i1] - arr[i2])

    verdict = check_answer("linear_lookup", jac)
    assert Kind.NEAR_LATTICE not in verdict.kinds()


def test_a_one_entry_jacobian_wrong_on_its_only_entry_reads_in_the_singular() -> None:
    # Not "the Jacobian is wrong on all 1 entries (first 1: ...)".
    verdict = check_answer("id", lambda x: 3 * jnp.ones((1, 1)))
    cells = [d.message for d in verdict.diagnoses if d.kind is Kind.CELLS]
    assert cells == ["the Jacobian is wrong on its only entry (d f[0] / d x[0]: yours 3, expected 2)"]


def test_one_wrong_entry_is_listed_without_first_one() -> None:
    verdict = check_answer("relu", lambda x: (I10 == O10) * (x > 0) * (I10 != 3))
    cells = [d.message for d in verdict.diagnoses if d.kind is Kind.CELLS]
    assert cells and cells[0].startswith(
        "the Jacobian is wrong on 1 of 100 entries (d f[3] / d x[3]: yours 0, expected 1)"
    )


# The layers chapter's classic mistakes, each written as a learner would.


def _stable_softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)  # type: ignore[no-any-return]


def test_an_unshifted_exp_that_overflows_is_named_overflow_not_a_division() -> None:
    def logsumexp_jac(x):  # type: ignore[no-untyped-def]
        e = np.exp(x)  # no max subtracted: inf for entries in the thousands
        return (np.arange(2)[:, None, None] == np.arange(2)[:, None]) * (e / np.sum(e, axis=1, keepdims=True))

    for seed in (0, 1, 2):
        verdict = check_answer("logsumexp", logsumexp_jac, seed=seed)
        assert verdict.kinds()[0] is Kind.OVERFLOW, (seed, verdict.message)
        assert "divide by an input" not in verdict.message
        assert re.search(
            r"at an input with entries in the (hundreds|thousands) \(x\[\d, \d\] = -?\d+(\.\d+)?\): exp of an entry",
            verdict.message,
        )
        assert "Subtract the largest entry first" in verdict.message


def test_an_entrywise_exp_that_overflows_is_not_told_to_subtract_a_largest_entry() -> None:
    # Red team RT34's F1: GELU's tanh written as (e^2u - 1) / (e^2u + 1) is NaN once e^2u is inf;
    # GELU normalises over nothing, so the softmax's cure does not apply.
    c = np.sqrt(2 / np.pi)

    def gelu_jac(x):  # type: ignore[no-untyped-def]
        u = c * (x + 0.044715 * x**3)
        e = np.exp(2 * u)
        t = (e - 1) / (e + 1)
        slope = 0.5 * (1 + t) + 0.5 * x * (1 - t**2) * c * (1 + 3 * 0.044715 * x**2)
        return np.diag(slope)

    verdict = check_answer("gelu", gelu_jac, seed=0)
    assert verdict.kinds()[0] is Kind.OVERFLOW, verdict.message
    assert "Subtract the largest entry" not in verdict.message and "normalises" not in verdict.message
    assert "exp never sees a large entry" in verdict.message


def test_a_factor_that_changes_from_draw_to_draw_is_not_called_constant() -> None:
    # Red team RT34's F11: layer_norm divided by sigma twice was "off by a constant factor: each
    # of your entries is 171/85 times the expected one", a ratio of the shown draw alone.
    def layer_norm_jac(x):  # type: ignore[no-untyped-def]
        centred = x - np.mean(x)
        sigma = np.sqrt(np.mean(centred**2) + 1e-5)
        y = centred / sigma
        return (np.eye(5) - 1 / 5 - y[:, None] * y[None, :] / 5) / sigma**2

    for seed in (0, 1):
        verdict = check_answer("layer_norm", layer_norm_jac, seed=seed)
        assert verdict.status is Status.FAIL and Kind.FACTOR not in verdict.kinds(), verdict.message
        assert "constant factor" not in verdict.message


def test_argmin_for_argmax_in_a_pool_is_no_off_by_one() -> None:
    # Red team RT34's F3: in windows of two, the smallest entry sits next to the largest, so a
    # draw whose maxima all sit on one side made argmin look shifted by one on seed 1.
    windows = 2 * np.arange(4)[:, None] + np.arange(2)

    def max_pool_jac(x):  # type: ignore[no-untyped-def]
        winner = 2 * np.arange(4)[:, None] + np.argmin(np.asarray(x)[windows], axis=1)[:, None]
        return 1.0 * (np.arange(8) == winner)

    for seed in (0, 1, 2):
        verdict = check_answer("max_pool", max_pool_jac, seed=seed)
        assert verdict.status is Status.FAIL and Kind.SHIFTED not in verdict.kinds(), (seed, verdict.message)


def test_a_flipped_convolution_kernel_is_named_a_flip_on_every_seed() -> None:
    def strided_conv_jac(x, w):  # type: ignore[no-untyped-def]
        k = np.arange(7) + 1 - 2 * np.arange(4)[:, None]
        flipped = w[::-1]  # np.convolve's habit; the layer does not flip
        dx = np.where((k >= 0) & (k <= 2), flipped[np.clip(k, 0, 2)], 0.0)
        dw = np.pad(x, 1)[2 * np.arange(4)[:, None] + np.arange(3)][:, ::-1]
        return dx, dw

    for seed in (0, 1, 2):
        verdict = check_answer("strided_conv", strided_conv_jac, seed=seed)
        assert verdict.kinds()[0] is Kind.FLIPPED, (seed, verdict.message)
        assert Kind.SHIFTED not in verdict.kinds()
        assert verdict.message.startswith(
            "d f / d x is the expected one with the kernel w reversed: where f uses w[k] you use w[2 - k]. "
            "f does not flip the kernel (a cross-correlation"
        )


def test_an_unflipped_kernel_where_f_convolves_is_named_a_flip() -> None:
    def conv_jac(x, y):  # type: ignore[no-untyped-def]
        lag = np.arange(10) - np.arange(6)[:, None]
        dx = np.where((lag >= 0) & (lag <= 4), y[np.clip(lag, 0, 4)], 0.0) / 5
        return dx, x[np.arange(6)[:, None] + np.arange(5)] / 5

    verdict = check_answer("conv", conv_jac)
    assert verdict.kinds()[0] is Kind.FLIPPED
    assert "with the kernel y reversed: where f uses y[k] you use y[4 - k]. f flips the kernel" in verdict.message


def test_the_published_answer_for_a_variant_with_a_gain_is_named() -> None:
    def softmax_jac(x):  # type: ignore[no-untyped-def]
        s = _stable_softmax(x / 2)
        return (np.diag(s) - s[:, None] * s[None, :]) / 2  # the published puzzle's answer

    verdict = check_answer("softmax", softmax_jac, variant={"gain": 2})
    assert verdict.kinds()[0] is Kind.PUBLISHED
    assert verdict.diagnoses[0].message == (
        "the Jacobian: your answer is the published puzzle's, but your f multiplies by 2 (gain=2; the "
        "published f by 1), as its code shows: multiply your Jacobian by 2"
    )
    halved = check_answer("softmax", softmax_jac, variant={"gain": 0.5})
    assert (
        "your f multiplies by 0.5 (gain=0.5; the published f by 1), as its code shows: multiply your Jacobian by 1/2"
        in halved.message
    )

    def log_softmax_jac(x):  # type: ignore[no-untyped-def]
        s = _stable_softmax(x, axis=0)  # the variant's axis followed, its gain left out
        a, b, c, d = np.arange(2)[:, None, None, None], np.arange(3)[:, None, None], np.arange(2)[:, None], np.arange(3)
        return (a == c) * (b == d) - (b == d) * s

    gain_only = check_answer("log_softmax", log_softmax_jac, variant={"axis": 0, "gain": -2})
    assert gain_only.kinds()[0] is Kind.PUBLISHED
    assert gain_only.message.startswith(
        "the Jacobian: you left out your variant's gain, but your f multiplies by -2 (gain=-2; the published f by 1), "
        "as its code shows: multiply your Jacobian by -2"
    )
    # On the published puzzle itself, a factor is only a factor.
    wrong = check_answer("softmax", lambda x: softmax_jac(x) * 3)
    assert wrong.kinds()[0] is Kind.FACTOR


def test_a_softmax_without_its_coupling_is_named() -> None:
    def softmax_jac(x):  # type: ignore[no-untyped-def]
        return np.diag(_stable_softmax(x / 2)) / 2  # the classic: only the diagonal part

    verdict = check_answer("softmax", softmax_jac)
    assert verdict.kinds()[0] is Kind.COUPLING
    assert verdict.message.startswith(
        "the Jacobian is 0 where every output depends on every input, and off on the diagonal"
    )
    assert "-s_o s_i" in verdict.message

    def diagonal_only(x):  # type: ignore[no-untyped-def]
        s = _stable_softmax(x / 2)
        return np.diag(s * (1 - s)) / 2  # right on the diagonal

    right_there = check_answer("softmax", diagonal_only)
    assert right_there.kinds()[0] is Kind.COUPLING
    assert right_there.message.startswith(
        "the Jacobian is right on the diagonal, but 0 where every output depends on every input: the off-diagonal "
        "coupling is missing"
    )


def test_a_slope_wrong_on_one_side_of_the_kink_is_shown_on_a_draw_with_both_sides() -> None:
    def relu_jac(x):  # type: ignore[no-untyped-def]
        return np.diag(np.where(x > 0, 1.0, 0.07))  # the variant's slope is 0.01

    for seed in (0, 1, 2):
        verdict = check_answer("relu", relu_jac, seed=seed, variant={"leak": 0.01})
        assert verdict.kinds()[0] is Kind.KINK, (seed, verdict.message)
        assert verdict.message.startswith(
            "the Jacobian: your slope for negative inputs is 0.07, expected 0.01 (right for positive inputs)"
        )
        assert verdict.failure is not None
        x = verdict.failure.draw["x"]
        assert (x < 0).any() and (x > 0).any()


def test_a_block_of_entries_too_small_to_square_is_judged_without_a_warning() -> None:
    # Softmax with 1 - s computed from the other weights, where jacfwd rounds the top weight's
    # 1 - s to 0: the two differ only on seed 2's draw of large magnitudes, whose entries are
    # near 1e-181 and have squares of 0 (the factor test divided 0 by 0 there). The answer is
    # judged against jacfwd's float64 value, as every answer is (docs/checker.md).
    def jac(x):  # type: ignore[no-untyped-def]
        z = x / 2
        e = jnp.exp(z - jnp.max(z))
        s = e / jnp.sum(e)
        others = jnp.sum(e[None, :] * (1 - jnp.eye(5)), axis=1) / jnp.sum(e)
        return (jnp.diag(s * others) - (s[:, None] * s[None, :]) * (1 - jnp.eye(5))) / 2

    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        verdict = check_answer("softmax", jac, seed=2)
    assert verdict.status is Status.FAIL and "yours 1.47e-181, expected 0" in verdict.message, verdict.message


def test_a_one_entry_jacobian_is_off_by_a_constant_factor_only_when_every_draw_says_so() -> None:
    # With one entry, any wrong value is a multiple of the right one on its draw: red team RT33 saw
    # `cos`'s answer called 23/362 times the expected one, a ratio of that draw alone.
    linearised = check_answer("cos", lambda x: jnp.reshape(-x, (1, 1)))  # -x for -sin(x): no constant ratio
    assert linearised.status is Status.FAIL
    assert Kind.FACTOR not in linearised.kinds(), linearised.kinds()
    scaled = check_answer("cos", lambda x: jnp.reshape(-2.5 * jnp.sin(x), (1, 1)))
    assert Kind.FACTOR in scaled.kinds(), scaled.kinds()


def test_a_draws_floor_lets_any_difference_below_it_pass_and_nothing_above() -> None:
    from checker.engine._tolerance import close, close_per_draw, failing_draws

    expected = np.array([3e-305, 2e-308, 0.0])
    flushed = np.array([3e-305, 0.0, 1e-309])  # a subnormal flushed, another kept
    assert not close(flushed, expected).all()
    assert close(flushed, expected, floor=1.4e-306).all()
    assert not close(np.array([0.0, 2e-308, 0.0]), expected, floor=1.4e-306).all()  # the whole slope lost
    stack = np.stack([flushed, flushed])
    assert list(close_per_draw(stack, np.stack([expected, expected]), floors=[1.4e-306, 0.0])) == [True, False]
    assert failing_draws([(flushed,), (flushed,)], [(expected,), (expected,)], floors=[1.4e-306, 0.0]) == [1]


def test_a_smooth_elementwise_f_is_never_told_of_a_branch() -> None:
    # gelu has no kink: an answer off by a share everywhere (tanh in float32, a rounded constant)
    # shows first where its slopes are small, which can be exactly the negative entries, and was
    # told "check the negative branch" (red team RT38). relu, which declares its kink by avoiding
    # 0, is still told so.
    from checker.engine._judge import _kink_diagnoses
    from checker.engine._variants import variant

    x = np.array([-2.5, 0.4, -3.1, 1.2, -2.8, 0.9])
    for name, told in (("gelu", False), ("relu", True)):
        puzzle = variant(name, None)
        arg = puzzle.args[0]
        values = np.resize(x, arg.shape)
        want = np.diag(np.where(values > 0, 1.0, 0.02))
        got = np.diag(np.where(values > 0, 1.0, 0.0201))
        draw = next(d for d in draws(puzzle, 0))
        draw = type(draw)("a draw with both signs", (values,))
        found = _kink_diagnoses("the Jacobian", got, want, arg.shape, arg, draw, puzzle)
        assert bool(found) is told and all(d.kind is Kind.KINK for d in found), (name, found)
