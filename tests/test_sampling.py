"""Input draws: seeded, at least ten, built from structure on every seed, never where f has no
derivative."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from checker.engine import _catalog
from checker.engine._sampling import LATTICE_OFFSETS, draws


def _same(a, b) -> bool:  # type: ignore[no-untyped-def]
    return all(
        x.label == y.label and all(np.array_equal(u, v) for u, v in zip(x.values, y.values)) for x, y in zip(a, b)
    )


@pytest.mark.parametrize("puzzle", _catalog.puzzles(), ids=lambda p: p.name)
def test_at_least_ten_draws_of_the_declared_shapes_and_dtypes(puzzle: _catalog.Puzzle) -> None:
    batch = draws(puzzle, 0)
    assert len(batch) >= 10
    for d in batch:
        assert [v.shape for v in d.values] == [a.shape for a in puzzle.args]
        assert [v.dtype.name for v in d.values] == [
            "float64" if a.dtype.startswith("float") else a.dtype for a in puzzle.args
        ]


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
        assert "zero entr" not in d.label
    for d in draws(sort, seed):
        gaps = np.diff(np.sort(d.values[0]))
        assert gaps.min() > 0


SEEDS = range(6)


def _values(name: str, seed: int, arg: int) -> list[np.ndarray]:
    puzzle = _catalog.get(name)
    assert puzzle is not None
    return [np.asarray(d.values[arg], np.float64).reshape(-1) for d in draws(puzzle, seed)]


@pytest.mark.parametrize("seed", SEEDS)
def test_relu_meets_both_sides_of_its_kink_closer_than_1e_6(seed: int) -> None:
    entries = np.concatenate(_values("relu", seed, 0))
    assert ((entries > 0) & (entries <= 1e-8)).any() and ((entries < 0) & (entries >= -1e-8)).any()


@pytest.mark.parametrize("seed", SEEDS)
def test_sort_meets_near_ties_down_to_1e_9(seed: int) -> None:
    smallest = min(
        float(np.min(np.diff(np.sort(v)) / np.maximum(1, np.abs(np.sort(v))[1:]))) for v in _values("sort", seed, 0)
    )
    assert 0 < smallest <= 2e-9


@pytest.mark.parametrize("seed", SEEDS)
def test_indices_meet_every_distance_on_both_sides_of_integers_and_halves(seed: int) -> None:
    index = np.concatenate(_values("linear_lookup", seed, 1))
    for lattice in (np.round(index), np.floor(index) + 0.5):
        gap = index - lattice
        for d in LATTICE_OFFSETS:
            # rtol 0.2: 1e-14 from an index up to 5 is known to within an ulp (9e-16) only
            assert np.isclose(gap, d, rtol=0.2, atol=0).any() and np.isclose(gap, -d, rtol=0.2, atol=0).any(), d


@pytest.mark.parametrize("seed", SEEDS)
def test_index_vectors_mix_lattice_and_plain_entries(seed: int) -> None:
    def mixed(v: np.ndarray) -> bool:
        on = np.isclose(v * 2, np.round(v * 2), rtol=0, atol=0)
        return bool(on.any() and (~on).any())

    assert sum(mixed(v) for v in _values("bulk_bandwidthify", seed, 0)) >= 4


@pytest.mark.parametrize("seed", SEEDS)
def test_zeros_meet_every_magnitude(seed: int) -> None:
    two_zeros = [v for v in _values("prod", seed, 0) if (v == 0).sum() == 2]
    for low, high in [(1e-7, 1e-6), (1e-4, 1e-3), (1e2, 1e3), (1e3, 1e4)]:
        assert any(low <= np.abs(v[v != 0]).min() and np.abs(v).max() <= high for v in two_zeros), (low, high)


@pytest.mark.parametrize("seed", SEEDS)
def test_writes_that_leave_the_value_unchanged_are_drawn(seed: int) -> None:
    scatter = _catalog.get("scatter_update")
    assign = _catalog.get("assign_index")
    assert scatter is not None and assign is not None
    same = {int(d.values[1]) for d in draws(scatter, seed) if d.values[2] == d.values[0][int(d.values[1])]}
    assert same == {0, 1, 2, 3}
    rows = {int(d.values[1]) for d in draws(assign, seed) if np.array_equal(d.values[2], d.values[0][int(d.values[1])])}
    assert rows == {0, 1, 2}


@pytest.mark.parametrize("seed", SEEDS)
def test_every_value_of_a_scalar_integer_argument_is_drawn(seed: int) -> None:
    assert {int(v[0]) for v in _values("scatter_update", seed, 1)} == {0, 1, 2, 3}
    ids = np.concatenate(_values("gather", seed, 1))
    assert set(ids.astype(int)) == set(range(27))


def test_the_same_structures_on_every_seed() -> None:
    puzzle = _catalog.get("tensor_write_2d")
    assert puzzle is not None
    labels = [[d.label for d in draws(puzzle, seed)] for seed in SEEDS]
    assert all(lab == labels[0] for lab in labels)


def _pointed(d_values: tuple[np.ndarray, ...], name: str) -> tuple[int, ...] | None:
    """Where the pointers of a write puzzle's draw point, when they point exactly (an integer, or
    one-hot vectors); None for a soft pointer."""
    if name in ("assign_index", "scatter_update"):
        return (int(d_values[1]),)
    hots = [d_values[1]] if name == "assign_index_vectored" else [d_values[2], d_values[3]]
    if not all(np.sum(h == 1.0) == 1 and np.sum(h == 0.0) == h.size - 1 for h in hots):
        return None
    return tuple(int(np.argmax(h)) for h in hots)


WRITES = {  # puzzle: (the argument written into, the value written)
    "assign_index": (0, 2), "assign_index_vectored": (0, 2), "scatter_update": (0, 2), "tensor_write_2d": (0, 1),
}


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", sorted(WRITES))
def test_a_written_value_equal_to_another_slice_is_drawn_for_every_slice(name: str, seed: int) -> None:
    # The value written equals slice j while the pointers select k != j (and, for every j, also
    # with k == j): an answer that finds the written slice by comparing f's output with the
    # arguments sees two, and one that does so only at the pointed slice is right.
    puzzle = _catalog.get(name)
    assert puzzle is not None
    into, value = WRITES[name]
    slices = list(np.ndindex(puzzle.args[into].shape[: len(puzzle.args[into].shape) - len(puzzle.args[value].shape)]))
    aligned, elsewhere = set(), set()
    for d in draws(puzzle, seed):
        at = _pointed(d.values, name)
        for j in slices:
            if at is not None and np.array_equal(d.values[into][j], d.values[value]):
                (aligned if at == j else elsewhere).add(j)
    assert aligned == set(slices) and elsewhere == set(slices), (aligned, elsewhere)


ULP = float(np.finfo(np.float64).epsneg)  # the step below 1


def _mask_args() -> list[tuple[str, int]]:
    return [
        (p.name, k)
        for p in _catalog.puzzles()
        for k, a in enumerate(p.args)
        if (a.sampler == "simplex" and "one-hot" in a.edge_names)
        or ("integer" in a.edge_names and (a.low, a.high) == (0.0, 1.0))
    ]


@pytest.mark.parametrize("seed", SEEDS[:2])
@pytest.mark.parametrize(("name", "arg"), _mask_args(), ids=lambda x: str(x))
def test_masks_meet_exactly_0_and_1_and_within_ulps_of_each(name: str, arg: int, seed: int) -> None:
    entries = np.concatenate(_values(name, seed, arg))
    assert (entries == 1.0).any() and (entries == 0.0).any()
    assert ((entries < 1.0) & (entries >= 1.0 - 4 * ULP)).any(), "no entry within 4 ulps below 1"
    assert ((entries > 0.0) & (entries <= 1e-299)).any(), "no entry within 1e-299 above 0"


@pytest.mark.parametrize("seed", SEEDS)
def test_tensor_write_2d_mask_is_drawn_exactly_1_and_within_a_few_ulps_of_it(seed: int) -> None:
    # M = outer(x, y): where an answer divides by 1 - M, it is exactly 0 or a few ulps.
    puzzle = _catalog.get("tensor_write_2d")
    assert puzzle is not None
    masks = np.concatenate([np.outer(d.values[2], d.values[3]).reshape(-1) for d in draws(puzzle, seed)])
    gaps = set((1.0 - masks[(masks > 1 - 16 * ULP)]) / ULP)
    assert {0.0, 1.0, 2.0, 4.0} <= {round(g) for g in gaps}, sorted(gaps)


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_tensor_write_2d_value_written_over_itself_is_a_mask_of_exactly_1(seed: int) -> None:
    # "element equal to arr[i, j]" points both x_index and y_index at the cell (y_index was left
    # random once: the write then only blended the value into the cell).
    puzzle = _catalog.get("tensor_write_2d")
    assert puzzle is not None
    found = 0
    for d in draws(puzzle, seed):
        if d.label.startswith("element equal to arr[") and "-arr" not in d.label:
            i, j = (int(c) for c in d.label.split("[")[1].split("]")[0].split(", "))
            if np.outer(d.values[2], d.values[3])[i, j] == 1.0:
                found += 1
    assert found == 9


def _leading_random(batch: tuple) -> list:  # type: ignore[type-arg]
    return list(itertools.takewhile(lambda d: d.label.startswith("random draw"), batch))


def test_random_values_per_entry_are_what_the_docs_say() -> None:
    # docs/checker.md: n = 60 / entries of the smallest floating argument, at least 6, and every
    # entry takes n values per seed, one in each n-th of its domain (not 60 per entry).
    doc = " ".join((Path(__file__).resolve().parents[1] / "docs" / "checker.md").read_text().split())
    assert (
        "every entry of every argument takes $n$ random values per seed: 60 for a one-entry argument (`cos`), 20 when "
        "the smallest argument has 3 entries (`assign_index`), 6 when it has ten or more (`cumsum`"
        in doc
    )
    for name, n in (("cos", 60), ("assign_index", 20), ("cumsum", 6)):
        puzzle = _catalog.get(name)
        assert puzzle is not None
        for seed in (0, 1):
            random = _leading_random(draws(puzzle, seed))
            assert len(random) == n, (name, len(random))
            for k, a in enumerate(puzzle.args):
                if not a.dtype.startswith("float"):
                    continue
                values = np.stack([np.asarray(d.values[k], np.float64).reshape(-1) for d in random])
                slices = np.floor((values - a.low) / ((a.high - a.low) / n)).astype(int)
                assert (np.sort(slices, axis=0) == np.arange(n)[:, None]).all(), (name, a.name)


def test_the_smallest_floating_argument_takes_about_60_random_values_everywhere() -> None:
    for puzzle in _catalog.puzzles():
        sizes = [max(1, int(np.prod(a.shape))) for a in puzzle.args if a.dtype.startswith("float")]
        n = len(_leading_random(draws(puzzle, 0)))
        assert n >= 6 and (n == 6 or 60 <= n * min(sizes) < 60 + min(sizes)), (puzzle.name, n, min(sizes))


TINY64 = float(np.finfo(np.float64).tiny)
TINY32 = float(np.finfo(np.float32).tiny)


@pytest.mark.parametrize("puzzle", _catalog.puzzles(), ids=lambda p: p.name)
def test_no_entry_is_subnormal(puzzle: _catalog.Puzzle) -> None:
    # XLA flushes float64's subnormals: the oracles would see 0 where numpy does not.
    for d in draws(puzzle, 0):
        for v in d.values:
            entries = np.abs(np.asarray(v, np.float64)).reshape(-1)
            assert not ((entries > 0) & (entries < TINY64)).any(), d.label


@pytest.mark.parametrize("seed", SEEDS)
def test_relu_meets_its_kink_at_the_smallest_normal_and_below_1e_305(seed: int) -> None:
    entries = np.concatenate(_values("relu", seed, 0))
    assert (entries == TINY64).any() and (entries == -TINY64).any()
    assert ((np.abs(entries) > TINY64) & (np.abs(entries) < 1e-305)).any()


@pytest.mark.parametrize("seed", SEEDS)
def test_indices_meet_integers_and_halves_1_and_4_ulps_away_on_both_sides(seed: int) -> None:
    index = np.concatenate(_values("linear_lookup", seed, 1))
    for lattice in (np.round(index), np.floor(index) + 0.5):
        steps = set()
        for v, point in zip(index, lattice):
            if point == 0 and abs(v) in (1e-300, 1e-17):  # 0's ulps are subnormal: 1 and 4 "ulps" are these
                steps.add((1 if abs(v) == 1e-300 else 4) * (1 if v > 0 else -1))
            elif v != point and abs(v - point) < 1e-13:
                ulps = 0
                moved = point
                while moved != v and ulps < 8:
                    moved = np.nextafter(moved, v)
                    ulps += 1
                steps.add(ulps * (1 if v > point else -1))
        assert {1, -1, 4, -4} <= steps, sorted(steps)


def test_an_index_near_0_is_never_subnormal_but_within_1e_17() -> None:
    # Which lattice point a near draw is put by is random: over a few seeds of a vector of indices.
    index = np.concatenate([v for seed in SEEDS for v in _values("bulk_superposition_lookup", seed, 1)])
    assert ((index > 0) & (index <= 1e-299)).any() and ((index > 1e-299) & (index <= 1e-17)).any()


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("name", "arg"), [("mul", 1), ("matmul", 0), ("broadcast_multiply", 0), ("gather_vjp", 2),
                                           ("tensor_lookup_2d_corrected", 0), ("attention", 0)])
def test_an_argument_is_drawn_below_float32s_normal_range_alone(name: str, arg: int, seed: int) -> None:
    puzzle = _catalog.get(name)
    assert puzzle is not None
    others = [k for k, a in enumerate(puzzle.args) if k != arg and a.dtype.startswith("float")]
    assert any(
        0 < np.abs(d.values[arg]).max() < TINY32 and all(np.abs(d.values[k]).max() > 1e-3 for k in others)
        for d in draws(puzzle, seed)
    )


@pytest.mark.parametrize("seed", SEEDS)
def test_prod_meets_a_pair_whose_product_underflows(seed: int) -> None:
    def underflowing(v: np.ndarray) -> bool:
        small = np.sort(np.abs(v))
        return bool(small[0] * small[1] == 0 and small[0] > 0 and abs(np.prod(small[1:])) > TINY64)

    assert any(underflowing(v) for v in _values("prod", seed, 0))


@pytest.mark.parametrize("seed", SEEDS)
def test_plain_arguments_are_scaled_together_to_where_float32_and_rounding_lose_them(seed: int) -> None:
    asym = _catalog.get("asymmetrical_vectored_lookup")
    assert asym is not None
    # v and g at 1e-20 (squared distances below float32's range), k as drawn: the guard still holds.
    assert any(np.abs(d.values[0]).max() <= 1e-20 and np.abs(d.values[2]).max() <= 1e-20
               and np.abs(d.values[1]).max() > 1e-3 for d in draws(asym, seed))
    # every entry of sort's x rounds to 0 at 15 decimals
    assert any(np.abs(v).max() < 5e-16 and np.abs(v).min() > 0 for v in _values("sort", seed, 0))


@pytest.mark.parametrize("seed", SEEDS)
def test_attention_reaches_the_largest_scores_of_its_region_in_every_entry(seed: int) -> None:
    attention = _catalog.get("attention")
    assert attention is not None
    # the first two rows of q and k at the corners; their last rows as drawn (moderate scores)
    scores = [np.abs(d.values[0] @ d.values[1].T / np.sqrt(2.0)) for d in draws(attention, seed)]
    corners = [s for s in scores if s[:2, :2].min() > 12.5 and s.max() <= 9 * np.sqrt(2.0)]
    assert len(corners) >= 4


def test_draws_are_kept_on_disk_and_read_back_exactly_and_a_changed_puzzle_draws_afresh(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import dataclasses

    from checker.engine import _kept_draws, _sampling

    monkeypatch.setenv("JACPUZZLES_CACHE", str(tmp_path))
    attention = _catalog.get("attention")
    assert attention is not None
    made = draws(attention, 3)
    kept = sorted((tmp_path / "draws").glob("attention-*.npz"))
    assert len(kept) == 1
    monkeypatch.setattr(_sampling, "_drawn", lambda puzzle, seed: pytest.fail("drawn again"))
    again = draws(attention, 3)
    assert [(d.label, d.atol, d.floor) for d in again] == [(d.label, d.atol, d.floor) for d in made]
    assert any(d.atol for d in again)  # the cancelling spreads' own atol survives the round trip
    for d, e in zip(made, again):
        assert all(u.dtype == v.dtype and np.array_equal(u, v) for u, v in zip(d.values, e.values)), d.label
    monkeypatch.undo()
    monkeypatch.setenv("JACPUZZLES_CACHE", str(tmp_path))
    kept[0].write_bytes(b"damaged")
    assert [d.label for d in draws(attention, 3)] == [d.label for d in made]  # drawn again, and rewritten
    q = dataclasses.replace(attention.args[0], aligned_leads=attention.args[0].aligned_leads[:1])
    fewer = draws(dataclasses.replace(attention, args=(q, *attention.args[1:])), 3)
    assert len(fewer) == len(made) - (len(attention.args[0].aligned_leads) - 1) * _sampling.RANGE_DRAWS
    assert len(list((tmp_path / "draws").glob("attention-*.npz"))) == 2
    assert _kept_draws._load(kept[0], attention) is not None


def test_every_plain_argument_is_also_drawn_whole_at_tiny_magnitudes() -> None:
    # Red team RT36: a guard on max |y| and a clean-up of blocks below 1e-100 are wrong by the
    # whole block only where the whole argument is that small.
    from checker.engine._sampling import WHOLE_TINY

    mul = _catalog.puzzle_named("mul")
    batch = draws(mul, 0)
    for lo, hi in WHOLE_TINY:
        for k in range(2):
            whole = [d for d in batch if lo <= np.abs(d.values[k]).min() and np.abs(d.values[k]).max() <= hi]
            assert whole, (lo, k)
            assert all(np.abs(d.values[1 - k]).max() > 1e-3 for d in whole)  # the other argument as drawn


@pytest.mark.parametrize(
    "name", ["mul", "broadcast_multiply", "superposition_lookup_vectored", "tensor_lookup_2d_corrected"]
)
def test_near_the_bottom_of_float64_f_s_terms_are_subnormal_and_the_slopes_normal(name: str) -> None:
    # Red team RT36: a slope taken as f / x is 0 where f's terms flush. Such draws are compared
    # with an absolute floor, as right answers differ there by a few flushed subnormals.
    from checker.engine._sampling import BOTTOM_FLOOR, BOTTOMS, is_plain

    puzzle = _catalog.puzzle_named(name)
    plain = [k for k, a in enumerate(puzzle.args) if is_plain(a) and a.shape != ()]
    bottom = [d for d in draws(puzzle, 0) if d.floor == BOTTOM_FLOOR]
    assert len(bottom) == len(plain) * len(BOTTOMS)
    tiny = np.finfo(np.float64).tiny
    for (k, band), d in zip(itertools.product(plain, BOTTOMS), bottom):
        assert "compared to 1.4e-306 absolute" in d.label
        x = np.abs(d.values[k])
        assert band[0] <= x.min() and x.max() <= band[1]
        others = [np.abs(v).reshape(-1) for j, v in enumerate(d.values)
                  if j != k and puzzle.args[j].dtype.startswith("float")]
        smallest_other = min(float(np.min(o[o > 0])) for o in others)
        assert x.max() * smallest_other * 6 < tiny  # some term of f subnormal, even scaled by 6
        # A slope with a factor of 0.1 (0.25 in the lower band, below a test at 1e-305) still above the floor.
        assert x.min() * (0.1 if band == BOTTOMS[0] else 0.25) > BOTTOM_FLOOR
        assert band == BOTTOMS[0] or x.max() < 1e-305


@pytest.mark.parametrize("name", ["assign_index_vectored", "tensor_write_2d"])
def test_a_soft_write_is_drawn_with_a_small_weight_and_its_values_nearly_equal(name: str) -> None:
    # Red team RT36: the slope e - a taken as (f - a) / m passes unless m is small and e is close
    # to a. Each weight argument is drawn at every BLEND_WEIGHTS, the values half a gap apart or
    # more: there jax.jacfwd's own slope (x e - x a in tensor_write_2d) stays within the contract
    # of the exact one, so a right answer is judged fairly.
    import jax

    from checker.engine._numerics import pinned
    from checker.engine._sampling import BLEND_WEIGHTS, is_plain, is_weight
    from checker.engine._tolerance import CANCELLING_ATOL, close

    puzzle = _catalog.puzzle_named(name)
    weights = [k for k, a in enumerate(puzzle.args) if is_weight(a)]
    plain = [k for k, a in enumerate(puzzle.args) if is_plain(a)]
    blends = [d for d in draws(puzzle, 0) if "nearly equal" in d.label]
    # Every weight at the smaller gap, every other at the larger, the rest below `math.isclose`'s.
    assert len(blends) == len(weights) * (len(BLEND_WEIGHTS) + len(BLEND_WEIGHTS[1::2]) + len(BLEND_WEIGHTS[::2]))
    assert sum(d.atol == CANCELLING_ATOL for d in blends) == len(weights) * len(BLEND_WEIGHTS[::2])
    for d in blends:
        values = np.concatenate([d.values[k].reshape(-1) for k in plain])
        assert np.all(np.abs(values / values[0] - 1) < 2e-3), d.label
        smallest_weight = [np.sort(d.values[k].reshape(-1))[-2 if puzzle.args[k].sampler == "simplex" else 0]
                           for k in weights]
        assert min(smallest_weight) < 3.1e-4, d.label
        with pinned():  # float64, as the oracles compute
            fwd = jax.jacfwd(puzzle.f, argnums=tuple(weights))(*d.values)
        if name == "assign_index_vectored":
            arr, m, e = d.values
            exact = [np.einsum("ak,ab->abk", np.eye(3), e[None, :] - arr)]  # d f_ab / d m_k = [a = k] (e_b - A_ab)
        else:
            arr, e, x, y = d.values
            pull = e[None, None, :] - arr
            exact = [np.einsum("ik,j,ijc->ijck", np.eye(3), y, pull), np.einsum("jk,i,ijc->ijck", np.eye(3), x, pull)]
        for got, want in zip(fwd, exact):  # at the smallest gap, jacfwd's x e - x a only to its atol
            assert close(np.asarray(got), want, d.atol).all(), d.label
