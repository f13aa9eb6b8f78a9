"""The puzzle guards, defined once (`checker/engine/_domain.py`) for the checker's sampler, the
mutation prover and the corpus tests."""

from __future__ import annotations

import numpy as np

from checker.engine import _domain
from checker.engine._domain import GUARD_GAP


def _lookup(arr: np.ndarray) -> list[np.ndarray]:
    return [arr, np.ones(arr.shape[0]), np.ones(arr.shape[1])]


def test_unique_max_wants_each_channel_won_by_the_gap() -> None:
    arr = np.zeros((2, 2, 1))
    arr[0, 0, 0], arr[1, 1, 0] = 1.0, 1.0 - 2 * GUARD_GAP
    assert _domain.holds("unique_max", _lookup(arr))
    arr[1, 1, 0] = 1.0 - GUARD_GAP / 2  # the runner-up inside the gap: no derivative the checker vouches for
    assert not _domain.holds("unique_max", _lookup(arr))


def test_asymmetric_wants_a_clear_argmax_and_a_clear_nearest_entry() -> None:
    v = np.array([[0.0, 1.0, 2.0], [0.0, 1.0, 2.0]])
    k = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    g = np.array([-0.9, 0.1])  # targets r - g: 0.9 (nearest 1.0) and 0.9 (nearest 1.0)
    assert _domain.holds("asymmetric", [v, k, g])
    assert not _domain.holds("asymmetric", [v, np.array([[1.0, 1.0, 0.0], [0.0, 1.0, 0.0]]), g])  # tied argmax
    assert not _domain.holds("asymmetric", [v, k, np.array([-0.5, 0.1])])  # 0.5: as near 0.0 as 1.0


def test_a_stack_of_draws_is_judged_draw_by_draw() -> None:
    good = np.zeros((2, 2, 1))
    good[0, 0, 0] = 1.0
    tied = np.zeros((2, 2, 1))
    tied[0, 0, 0] = tied[1, 1, 0] = 1.0
    stack = [np.stack([good, tied]), np.ones((2, 2)), np.ones((2, 2))]
    assert _domain.admits("unique_max", stack).tolist() == [True, False]
