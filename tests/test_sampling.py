"""Input draws: seeded, at least ten, with the edge draws, and never where f has no derivative."""

from __future__ import annotations

import numpy as np
import pytest

from checker import _catalog
from checker._sampling import _min_gap, draws


def _same(a, b) -> bool:  # type: ignore[no-untyped-def]
    return all(x.label == y.label and all(np.array_equal(u, v) for u, v in zip(x.values, y.values)) for x, y in zip(a, b))


@pytest.mark.parametrize("puzzle", _catalog.puzzles(), ids=lambda p: p.name)
def test_at_least_ten_draws_of_the_declared_shapes_and_dtypes(puzzle: _catalog.Puzzle) -> None:
    batch = draws(puzzle, 0)
    assert len(batch) >= 10
    for d in batch:
        assert [v.shape for v in d.values] == [a.shape for a in puzzle.args]
        assert [v.dtype.name for v in d.values] == [a.dtype for a in puzzle.args]


def test_same_seed_same_draws_other_seed_other_draws() -> None:
    cumsum = _catalog.get("cumsum")
    assert cumsum is not None
    assert _same(draws(cumsum, 7), draws(cumsum, 7))
    assert not np.array_equal(draws(cumsum, 7)[0].values[0], draws(cumsum, 8)[0].values[0])


def test_prod_gets_exact_zero_entries_and_extreme_magnitudes() -> None:
    prod = _catalog.get("prod")
    assert prod is not None
    by_label = {d.label: d.values[0] for d in draws(prod, 0)}
    assert int((by_label["zero entry"] == 0).sum()) == 1
    assert int((by_label["two zero entries"] == 0).sum()) == 2
    assert np.abs(by_label["large magnitudes"]).max() > 10
    assert np.abs(by_label["small magnitudes"]).max() < 1e-2


@pytest.mark.parametrize("seed", range(20))
def test_relu_never_sees_zero_and_sort_never_sees_ties(seed: int) -> None:
    relu, sort = _catalog.get("relu"), _catalog.get("sort")
    assert relu is not None and sort is not None
    for d in draws(relu, seed):
        assert np.all(d.values[0] != 0)
        assert "zero" not in d.label
    for d in draws(sort, seed):
        gaps = np.diff(np.sort(d.values[0]))
        assert gaps.min() > 0
    assert _min_gap(sort.args[0]) > 0
