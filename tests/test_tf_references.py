"""The TensorFlow references reproduce every value the indexing notebook prints, and the corrected
twins the mathematically right ones; `jacobians` and `vjps` lay out what TensorFlow's tape computes.

Gradients are taken the notebook's way, `tape.gradient` on `tf.Variable`s: for a non-scalar output
that is the Jacobian summed over the output's axes.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")

# Imported after the skip: the module imports TensorFlow itself.
from checker.engine import _tf_references  # noqa: E402
from checker.engine._tf_references import REFERENCES, jacobians, vjps  # noqa: E402

pytestmark = pytest.mark.slow

ONE_TO_FIVE = [1.0, 2.0, 3.0, 4.0, 5.0]
# The notebook's array for its 2-D lookup and write: cell (i, j) is [i + 1, (i + 1) * (1, 11, 111)[j]].
CELLS = [
    [[1, 1], [1, 11], [1, 111]],
    [[2, 2], [2, 22], [2, 222]],
    [[3, 3], [3, 33], [3, 333]],
]
ROWS_123 = [[1, 1, 1], [2, 2, 2], [3, 3, 3]]


def variable(value: Any) -> Any:
    """A float32 `tf.Variable`, as the notebook makes its inputs."""
    return tf.Variable(np.asarray(value, dtype=np.float32))


def gradients(name: str, *args: Any) -> tuple[Any, list[Any]]:
    """`REFERENCES[name](*args)` and `tape.gradient` of its output against each argument (or None)."""
    with tf.GradientTape(persistent=True) as tape:
        output = REFERENCES[name](*args)
    return output, [tape.gradient(output, arg) for arg in args]


def assert_values(actual: Any, expected: Any) -> None:
    """`actual` (a tensor) has `expected`'s shape and, to float32 precision, its values."""
    actual = np.asarray(actual)
    expected = np.asarray(expected, dtype=np.float32)
    assert actual.shape == expected.shape, f"shape {actual.shape}, expected {expected.shape}"
    np.testing.assert_allclose(actual, expected, rtol=1e-6, atol=1e-6)


# --- every value the notebook prints ------------------------------------------------------------


def test_naive_lookup_rounds_half_to_even_and_gives_the_index_no_gradient() -> None:
    value, (d_arr, d_index) = gradients("naive_lookup", variable(ONE_TO_FIVE), variable(1.5))
    assert_values(value, 3.0)
    assert_values(d_arr, [0, 0, 1, 0, 0])
    assert d_index is None


def test_linear_lookup_has_the_notebooks_negative_index_slope() -> None:
    value, (d_arr, d_index) = gradients("linear_lookup", variable(ONE_TO_FIVE), variable(1.5))
    assert_values(value, 2.5)
    assert_values(d_arr, [0, 0.5, 0.5, 0, 0])
    assert_values(d_index, -1.0)


def test_superposition_lookup_vectored_on_a_2d_array() -> None:
    arr = [[0, 0, 1, 0, 0], [0, 0, 0, 0, 1], [0, 1, 0, 0, 0], [1, 0, 0, 0, 0], [0, 0, 0, 1, 0]]
    value, (d_arr, d_indices) = gradients(
        "superposition_lookup_vectored", variable(arr), variable([0.5, 0.5, 0, 0, 0])
    )
    assert_values(value, [0, 0, 0.5, 0, 0.5])
    assert_values(d_arr, [[0.5] * 5, [0.5] * 5, [0] * 5, [0] * 5, [0] * 5])
    assert_values(d_indices, [1, 1, 1, 1, 1])


@pytest.mark.parametrize("name", ["superposition_lookup_vectored", "superposition_lookup_vectored_1d"])
def test_superposition_lookup_vectored_on_a_1d_array(name: str) -> None:
    value, (d_arr, d_indices) = gradients(name, variable([1, 2, 3, 5, 4]), variable([0, 0.1, 0.8, 0, 0.1]))
    assert_values(value, [3.0000002])
    assert_values(d_arr, [0, 0.1, 0.8, 0, 0.1])
    assert_values(d_indices, [1, 2, 3, 5, 4])


def test_bandwidthify_then_lookup() -> None:
    index = variable(2.5)
    with tf.GradientTape() as tape:
        spread = REFERENCES["bandwidthify"](index, 5)
        value = REFERENCES["superposition_lookup_vectored"](tf.range(5, dtype=tf.float32), spread)
    assert_values(spread, [0, 0, 0.5, 0.5, 0])
    assert_values(value, [2.5])
    assert_values(tape.gradient(value, index), -1.0)


def test_superposition_lookup() -> None:
    value, (d_arr, d_index) = gradients("superposition_lookup", variable(ONE_TO_FIVE), variable(1.5))
    assert_values(value, [2.5])
    assert_values(d_arr, [0, 0.5, 0.5, 0, 0])
    assert_values(d_index, -1.0)


def test_bulk_bandwidthify_then_lookup_reduces_over_the_wrong_axis() -> None:
    indices = variable([1, 2, 3.5, 0, 4])
    with tf.GradientTape(persistent=True) as tape:
        spread = REFERENCES["bulk_bandwidthify"](indices, 5)
        value = REFERENCES["superposition_lookup_vectored"](tf.range(5, dtype=tf.float32), spread)
        composed = REFERENCES["bulk_superposition_lookup"](tf.range(5, dtype=tf.float32), indices)
    assert_values(spread, [[0, 1, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 0.5, 0.5], [1, 0, 0, 0, 0], [0, 0, 0, 0, 1]])
    assert_values(value, [[0], [1], [2], [1.5], [6]])
    assert_values(tape.gradient(value, indices), [0, 0, -1, 0, 0])
    # The puzzle is that composition, as one function.
    assert_values(composed, [[0], [1], [2], [1.5], [6]])
    assert_values(tape.gradient(composed, indices), [0, 0, -1, 0, 0])


def test_residual_lookup_reports_zeros_not_none_as_a_tf_function() -> None:
    arr, index = variable(ONE_TO_FIVE), variable(1.5)
    with tf.GradientTape(persistent=True) as tape:
        result, residue = REFERENCES["residual_lookup"](arr, index)
    assert_values(result, 3.0)
    assert_values(residue, -0.5)
    assert_values(tape.gradient(result, arr), [0, 0, 1, 0, 0])
    # The notebook prints 0 and zeros here, not None: the tf.function call is one op on the tape,
    # connected to both inputs through its other output.
    assert_values(tape.gradient(residue, arr), [0, 0, 0, 0, 0])
    assert_values(tape.gradient(result, index), 0.0)
    assert_values(tape.gradient(residue, index), 1.0)


def test_asymmetrical_vectored_lookup_backward_passes() -> None:
    v = tf.constant([[1, 2, 3], [10, 20, 30]], dtype=tf.float32)
    k = tf.constant([[0, 1, 0], [1, 0, 0]], dtype=tf.float32)
    wanted = tf.constant([3, 20], dtype=tf.float32)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(k)
        picked = REFERENCES["asymmetrical_vectored_lookup"](v, k)
        loss = tf.nn.l2_loss(picked - wanted)
    assert_values(picked, [2, 10])
    # Upstream ones: the values wanted are 1 and 9, nearest v[:, 0] in both rows.
    assert_values(tape.gradient(picked, k), [[-1, 1, 1], [-1, 1, 1]])
    # Upstream r - t = [-1, -10]: the values wanted are exactly t, at v[0, 2] and v[1, 1].
    assert_values(tape.gradient(loss, k), [[1, 1, -1], [10, -10, 10]])


def _to_distribution(v: Any) -> Any:
    """Rows of `v` made into distributions through a smoothed absolute value (the notebook's helper)."""
    magnitude = tf.sqrt(tf.square(v) + 1e-9)
    return tf.math.divide_no_nan(magnitude, tf.reduce_sum(magnitude, axis=-1, keepdims=True))


def _notebook_entropy(p: Any) -> Any:
    """The notebook's per-row "entropy": twice the mean (not the sum) of -p log2 p."""
    return -2.0 * tf.reduce_mean(p * tf.math.log(p + 1e-9), axis=-1) / tf.math.log(2.0)


def test_asymmetrical_vectored_lookup_learns_the_notebooks_choice() -> None:
    # The notebook's training cell, with its helper library's two functions and Adam written out
    # (Keras' update rule, learning rate 0.1: its decay starts at step 100, after these 10).
    values = tf.constant([[20, 40, 30], [50, 70, 10]], dtype=tf.float32)
    target = tf.constant([40, 70], dtype=tf.float32)
    choice = variable([[1, 0, 0], [0, 0, 1]])
    first_moment, second_moment = tf.zeros_like(choice), tf.zeros_like(choice)
    losses, entropies, outputs = [], [], []
    for step in range(1, 11):
        with tf.GradientTape() as tape:
            out = REFERENCES["asymmetrical_vectored_lookup"](values, choice)
            target_loss = tf.nn.l2_loss(out - target)
            entropy = _notebook_entropy(choice)
            loss = target_loss + entropy * 1e-2
        grad = tape.gradient(loss, choice)
        first_moment = 0.9 * first_moment + 0.1 * grad
        second_moment = 0.999 * second_moment + 0.001 * grad * grad
        rate = 0.1 * np.sqrt(1 - 0.999**step) / (1 - 0.9**step)
        choice.assign_sub(rate * first_moment / (tf.sqrt(second_moment) + 1e-7))
        choice.assign(_to_distribution(choice))
        losses.append(float(target_loss))
        entropies.append(entropy.numpy())
        outputs.append(out.numpy())
    assert losses == [2000.0] * 5 + [0.0] * 5
    np.testing.assert_array_equal(outputs, [[20, 10]] * 5 + [[40, 70]] * 5)
    printed = [0, 0.577248, 0.542812, 0.822555, 0.728512, 0.875905, 0.686751, 0.781493, 0.552688, 0.624353]
    np.testing.assert_allclose(np.asarray(entropies)[:, 0], printed, atol=1e-4)
    np.testing.assert_array_equal(tf.round(choice * 100).numpy(), [[12, 88, 0], [0, 88, 12]])


def test_assign_index() -> None:
    arr, index, element = variable(ROWS_123), tf.constant(1), variable([4, 4, 4])
    value, (d_arr, d_index, d_element) = gradients("assign_index", arr, index, element)
    assert_values(value, [[1, 1, 1], [4, 4, 4], [3, 3, 3]])
    assert_values(d_arr, [[1, 1, 1], [0, 0, 0], [1, 1, 1]])
    assert d_index is None
    assert_values(d_element, [1, 1, 1])


@pytest.mark.parametrize(
    ("index", "expected"),
    [([0, 1, 0], [[1, 1, 1], [4, 4, 4], [3, 3, 3]]), ([0.5, 0.5, 0], [[2.5, 2.5, 2.5], [3, 3, 3], [3, 3, 3]])],
)
def test_assign_index_vectored(index: list[float], expected: list[list[float]]) -> None:
    value, (_, d_index, _) = gradients(
        "assign_index_vectored", variable(ROWS_123), variable(index), variable([4, 4, 4])
    )
    assert_values(value, expected)
    assert_values(d_index, [9, 6, 3])


def test_assign_index_vectored_other_gradients() -> None:
    _, (d_arr, _, d_element) = gradients(
        "assign_index_vectored", variable(ROWS_123), variable([0, 1, 0]), variable([4, 4, 4])
    )
    assert_values(d_arr, [[1, 1, 1], [0, 0, 0], [1, 1, 1]])
    assert_values(d_element, [1, 1, 1])


def test_broadcast_multiply_pads_the_lower_rank_at_the_end() -> None:
    assert_values(REFERENCES["broadcast_multiply"](tf.ones((3, 3, 2)) * 3, tf.ones((3, 3)) * 2), np.full((3, 3, 2), 6))
    # Trailing padding, not numpy's leading: y[i, j] scales the whole cell x[i, j, :].
    x, y = np.ones((3, 3, 2), np.float32), np.arange(9, dtype=np.float32).reshape(3, 3)
    assert_values(REFERENCES["broadcast_multiply"](x, y), x * y[:, :, None])


def test_tensor_lookup_2d() -> None:
    value, (d_arr, d_x, d_y) = gradients(
        "tensor_lookup_2d", variable(CELLS), variable(np.eye(3)[1]), variable(np.eye(3)[2])
    )
    assert_values(value, [2, 222])
    expected = np.zeros((3, 3, 2))
    expected[1, 2] = 1
    assert_values(d_arr, expected)
    assert_values(d_x, [0, 224, 0])
    assert_values(d_y, [0, 0, 224])


def test_tensor_write_2d() -> None:
    value, (d_arr, d_element, d_x, d_y) = gradients(
        "tensor_write_2d", variable(CELLS), variable([5, 555]), variable(np.eye(3)[1]), variable(np.eye(3)[2])
    )
    written = np.array(CELLS, dtype=np.float32)
    written[1, 2] = [5, 555]
    assert_values(value, written)
    kept = np.ones((3, 3, 2))
    kept[1, 2] = 0
    assert_values(d_arr, kept)
    assert_values(d_element, [1, 1])
    assert_values(d_x, [448, 336, 224])
    assert_values(d_y, [556, 536, 336])


# --- the article's and the post's examples (they print no values; these are worked by hand) ----


def test_scatter_update_replaces_one_entry() -> None:
    value, (d_vector, d_index, d_target) = gradients(
        "scatter_update", variable([1, 2, 3, 4]), tf.constant(2), variable(10)
    )
    assert_values(value, [1, 2, 10, 4])
    assert_values(d_vector, [1, 1, 0, 1])
    assert d_index is None
    assert_values(d_target, 1.0)


@pytest.mark.parametrize(
    ("index", "target", "gradient", "loss"), [(0, 7.0, [0, 4, 6, 8], 78.0), (1, 8.0, [2, 0, 6, 8], 90.0)]
)
def test_scatter_update_inside_a_sum_of_squares(index: int, target: float, gradient: list[float], loss: float) -> None:
    vector = variable([1, 2, 3, 4])
    with tf.GradientTape() as tape:
        value = tf.reduce_sum(tf.square(REFERENCES["scatter_update"](vector, tf.constant(index), tf.constant(target))))
    d_vector = tape.gradient(value, vector)
    assert_values(value, loss)
    assert_values(d_vector, gradient)
    if index == 1:
        # The article's third example: one step of size 0.1 leaves the replaced entry alone.
        assert_values(vector - 0.1 * d_vector, [0.8, 2, 2.4, 3.2])


def test_gather_fetches_one_embedding_per_index() -> None:
    rng = np.random.default_rng(18)
    embeddings = rng.normal(size=(27, 4)).astype(np.float32)
    idx = rng.integers(0, 26, size=(8, 3)).astype(np.int32)
    batch = REFERENCES["gather"](embeddings, idx)
    assert_values(batch, embeddings[idx])
    assert batch.shape == (8, 3, 4)
    assert_values(batch[0, 0], embeddings[idx[0, 0]])


# --- the corrected twins ------------------------------------------------------------------------


def test_linear_lookup_corrected_has_the_rising_slope() -> None:
    value, (d_arr, d_index) = gradients("linear_lookup_corrected", variable(ONE_TO_FIVE), variable(1.5))
    assert_values(value, 2.5)
    assert_values(d_arr, [0, 0.5, 0.5, 0, 0])
    assert_values(d_index, 1.0)


def test_the_swap_shows_off_the_midpoint() -> None:
    squares = np.array([0, 1, 4, 9, 16], np.float32)
    assert_values(REFERENCES["linear_lookup_corrected"](squares, 1.25), 0.75 * 1 + 0.25 * 4)
    assert_values(REFERENCES["linear_lookup"](squares, 1.25), 0.25 * 1 + 0.75 * 4)
    assert_values(REFERENCES["bandwidthify_corrected"](np.float32(2.25), 5), [0, 0, 0.75, 0.25, 0])
    assert_values(REFERENCES["bandwidthify"](np.float32(2.25), 5), [0, 0, 0.25, 0.75, 0])


def test_integer_indices_get_a_zero_index_gradient_from_divide_no_nan() -> None:
    for name in ("linear_lookup", "linear_lookup_corrected"):
        value, (_, d_index) = gradients(name, variable([0, 1, 4, 9, 16]), variable(2.0))
        assert_values(value, 4.0)
        assert_values(d_index, 0.0)


def test_superposition_lookup_corrected_has_the_rising_slope() -> None:
    value, (d_arr, d_index) = gradients("superposition_lookup_corrected", variable(ONE_TO_FIVE), variable(1.5))
    assert_values(value, [2.5])
    assert_values(d_arr, [0, 0.5, 0.5, 0, 0])
    assert_values(d_index, 1.0)


def test_bandwidthify_clips_indices_outside_the_band() -> None:
    for name in ("bandwidthify", "bandwidthify_corrected"):
        assert_values(REFERENCES[name](np.float32(-0.5), 5), [1, 0, 0, 0, 0])
        assert_values(REFERENCES[name](np.float32(4.5), 5), [0, 0, 0, 0, 1])


def test_bulk_superposition_lookup_corrected_looks_up_each_index() -> None:
    value, (d_arr, d_indices) = gradients(
        "bulk_superposition_lookup_corrected", variable(range(5)), variable([1, 2, 3.5, 0, 4])
    )
    assert_values(value, [1, 2, 3.5, 0, 4])
    assert_values(d_arr, [1, 1, 1, 0.5, 1.5])
    # Only the fractional index moves its lookup; at integers divide_no_nan gives 0.
    assert_values(d_indices, [0, 0, 1, 0, 0])


def test_bulk_bandwidthify_corrected_rows() -> None:
    rows = REFERENCES["bulk_bandwidthify_corrected"](np.array([1, 3.25, -1], np.float32), 5)
    assert_values(rows, [[0, 1, 0, 0, 0], [0, 0, 0, 0.75, 0.25], [1, 0, 0, 0, 0]])


def test_tensor_lookup_2d_corrected_returns_a_negative_cell() -> None:
    negative = -np.array(CELLS, dtype=np.float32)
    x, y = np.eye(3, dtype=np.float32)[1], np.eye(3, dtype=np.float32)[2]
    assert_values(REFERENCES["tensor_lookup_2d_corrected"](negative, x, y), [-2, -222])
    assert_values(REFERENCES["tensor_lookup_2d"](negative, x, y), [0, 0])
    assert_values(REFERENCES["tensor_lookup_2d_corrected"](np.array(CELLS, np.float32), x, y), [2, 222])


# --- jacobians and vjps -------------------------------------------------------------------------


def test_jacobians_of_linear_lookup() -> None:
    blocks = jacobians("linear_lookup", [np.array(ONE_TO_FIVE), np.array(1.5)], [0, 1])
    assert [block.shape for block in blocks] == [(5,), ()]
    assert all(block.dtype == np.float64 for block in blocks)
    assert_values(blocks[0], [0, 0.5, 0.5, 0, 0])
    assert_values(blocks[1], -1.0)


def test_jacobians_are_output_major_for_two_outputs() -> None:
    blocks = jacobians("residual_lookup", [np.array(ONE_TO_FIVE), np.array(1.5)], [0, 1])
    # result/arr, result/index, residue/arr, residue/index; unconnected ones are zeros.
    assert [block.shape for block in blocks] == [(5,), (), (5,), ()]
    for block, expected in zip(blocks, [[0, 0, 1, 0, 0], 0.0, [0, 0, 0, 0, 0], 1.0]):
        assert_values(block, expected)


def test_jacobians_of_naive_lookup_give_zeros_for_the_index() -> None:
    d_arr, d_index = jacobians("naive_lookup", [np.array(ONE_TO_FIVE), np.array(1.5)], [0, 1])
    assert_values(d_arr, [0, 0, 1, 0, 0])
    assert_values(d_index, 0.0)


def test_jacobians_of_tensor_write_2d_sum_to_the_notebooks_gradients() -> None:
    args = [np.array(CELLS, np.float32), np.array([5, 555], np.float32), np.eye(3)[1], np.eye(3)[2]]
    blocks = jacobians("tensor_write_2d", args, [0, 1, 2, 3])
    assert [block.shape for block in blocks] == [(3, 3, 2, 3, 3, 2), (3, 3, 2, 2), (3, 3, 2, 3), (3, 3, 2, 3)]
    summed = [block.sum(axis=(0, 1, 2)) for block in blocks]
    assert_values(summed[1], [1, 1])
    assert_values(summed[2], [448, 336, 224])
    assert_values(summed[3], [556, 536, 336])
    # The cell written depends on nothing of arr, every other cell only on itself.
    kept = np.ones((3, 3, 2), np.float32)
    kept[1, 2] = 0
    assert_values(blocks[0].reshape(18, 18), np.diag(kept.ravel()))


def test_jacobians_with_a_static_bandwidth() -> None:
    (block,) = jacobians("bandwidthify", [np.array(2.25), 5], [0])
    assert_values(block, [0, 0, 1, -1, 0])
    (block,) = jacobians("bulk_bandwidthify_corrected", [np.array([1, 2.5, 4.25, 0.5, 3], np.float32), 5], [0])
    assert block.shape == (5, 5, 5)
    expected = np.zeros((5, 5, 5), np.float32)
    for row, (below, index) in enumerate([(1, 1.0), (2, 2.5), (4, 4.25), (0, 0.5), (3, 3.0)]):
        if index != below and below + 1 < 5:
            expected[row, below, row], expected[row, below + 1, row] = -1, 1
    assert_values(block, expected)


def test_jacobians_agree_with_tape_gradient_sums() -> None:
    rng = np.random.default_rng(0)
    arr = rng.uniform(0.5, 5, size=(3, 3, 2)).astype(np.float32)
    x, y = rng.dirichlet(np.ones(3)).astype(np.float32), rng.dirichlet(np.ones(3)).astype(np.float32)
    blocks = jacobians("tensor_lookup_2d", [arr, x, y], [0, 1, 2])
    _, grads = gradients("tensor_lookup_2d", variable(arr), variable(x), variable(y))
    for block, grad in zip(blocks, grads):
        np.testing.assert_allclose(block.sum(axis=0), grad.numpy(), rtol=1e-6)


def test_a_second_draw_reuses_the_traced_program() -> None:
    args = [np.array(ONE_TO_FIVE), np.array(2.5)]
    jacobians("superposition_lookup_corrected", args, [0, 1])
    traced = _tf_references._jacobian_program.cache_info().misses
    d_arr, d_index = jacobians("superposition_lookup_corrected", [np.array([5, 4, 3, 2, 1.0]), np.array(0.75)], [0, 1])
    assert _tf_references._jacobian_program.cache_info().misses == traced
    assert_values(d_arr, [[0.25, 0.75, 0, 0, 0]])
    assert_values(d_index, [-1.0])


def test_vjps_of_the_asymmetric_lookup_match_the_notebook() -> None:
    v = np.array([[1, 2, 3], [10, 20, 30]], np.float32)
    k = np.array([[0, 1, 0], [1, 0, 0]], np.float32)
    d_v, d_k = vjps("asymmetrical_vectored_lookup", [v, k], [0, 1], np.ones(2, np.float32))
    assert_values(d_k, [[-1, 1, 1], [-1, 1, 1]])
    assert_values(d_v, k)
    d_v, d_k = vjps("asymmetrical_vectored_lookup", [v, k], [0, 1], np.array([-1, -10], np.float32))
    assert_values(d_k, [[1, 1, -1], [10, -10, 10]])
    assert_values(d_v, [[0, -1, 0], [-10, 0, 0]])


def test_the_asymmetric_lookups_dv_is_the_soft_lookups_gradient() -> None:
    # With a soft k, dv is g * k (the gradient of sum_i v_i k_i), not g at argmax k.
    v = np.array([[1, 2, 3], [10, 20, 30]], np.float32)
    k = np.array([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]], np.float32)
    d_v, d_k = vjps("asymmetrical_vectored_lookup", [v, k], [0, 1], np.array([2, -3], np.float32))
    assert_values(d_v, [[0.4, 1.0, 0.6], [-1.8, -0.3, -0.9]])
    # Values wanted: 2 - 2 = 0 and 10 + 3 = 13, nearest v[:, 0] in both rows; scaled by |g|.
    assert_values(d_k, [[-2, 2, 2], [-3, 3, 3]])


def test_gather_vjp_accumulates_repeated_indices() -> None:
    embeddings = np.arange(27 * 4, dtype=np.float32).reshape(27, 4)
    idx = np.zeros((8, 3), np.int32)
    idx[0] = [5, 5, 26]
    (d_embeddings,) = vjps("gather_vjp", [embeddings, idx], [0], np.ones((8, 3, 4), np.float32))
    assert d_embeddings.shape == (27, 4)
    assert d_embeddings.dtype == np.float64
    expected = np.zeros((27, 4), np.float32)
    expected[0], expected[5], expected[26] = 21, 2, 1
    assert_values(d_embeddings, expected)


def test_gather_vjp_is_a_scatter_add_of_the_upstream_rows() -> None:
    rng = np.random.default_rng(1)
    embeddings = rng.normal(size=(27, 4)).astype(np.float32)
    idx = rng.integers(0, 27, size=(8, 3)).astype(np.int32)
    g = rng.normal(size=(8, 3, 4)).astype(np.float32)
    expected = np.zeros((27, 4), np.float32)
    np.add.at(expected, idx, g)
    (d_embeddings,) = vjps("gather_vjp", [embeddings, idx], [0], g)
    np.testing.assert_allclose(d_embeddings, expected, rtol=1e-5, atol=1e-6)


def test_every_puzzle_of_the_chapter_has_a_reference() -> None:
    assert len(REFERENCES) == 24
    assert list(REFERENCES)[:3] == ["naive_lookup", "linear_lookup", "linear_lookup_corrected"]
    assert list(REFERENCES)[-2:] == ["gather", "gather_vjp"]


def test_misuse_is_refused_with_a_message() -> None:
    with pytest.raises(KeyError, match="no TensorFlow reference for puzzle 'nope'"):
        jacobians("nope", [np.zeros(3)], [0])
    with pytest.raises(ValueError, match="integer array, with no derivative"):
        jacobians("assign_index", [np.zeros((3, 3)), np.array(1, np.int32), np.zeros(3)], [1])
    with pytest.raises(ValueError, match="not the position of an array"):
        jacobians("bandwidthify", [np.array(1.5), 5], [1])
    with pytest.raises(ValueError, match="one-output puzzle"):
        vjps("residual_lookup", [np.array(ONE_TO_FIVE), np.array(1.5)], [0], np.float32(1))
