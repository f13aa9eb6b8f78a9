"""The oracles: jacfwd cross-checked against jacrev, and the on-disk cache."""

from __future__ import annotations

import numpy as np
import pytest

from checker import Kind, Status, check_answer
from checker.engine import _catalog, _oracles
from checker.engine._sampling import draws


def test_expected_matches_a_hand_derived_jacobian() -> None:
    cumsum = _catalog.get("cumsum")
    assert cumsum is not None
    batch = draws(cumsum, 0)
    for blocks in _oracles.expected(cumsum, batch):
        assert np.allclose(blocks[0], np.tril(np.ones((10, 10))) / 20)


def test_the_cache_returns_what_was_computed(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("JACPUZZLES_CACHE", str(tmp_path))
    conv = _catalog.get("conv")
    assert conv is not None
    batch = draws(conv, 1)
    first = _oracles.expected(conv, batch)
    assert len(list(tmp_path.glob("conv-*.npz"))) == 1

    def no_compute(*args):  # type: ignore[no-untyped-def]
        raise AssertionError("the cache was not used")

    monkeypatch.setattr(_oracles, "_compute", no_compute)
    again = _oracles.expected(conv, batch)
    assert all(np.array_equal(a, b) for x, y in zip(first, again) for a, b in zip(x, y))


def test_a_damaged_cache_file_is_recomputed(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("JACPUZZLES_CACHE", str(tmp_path))
    neg = _catalog.get("neg")
    assert neg is not None
    batch = draws(neg, 0)
    _oracles.expected(neg, batch)
    (cached,) = tmp_path.glob("neg-*.npz")
    cached.write_bytes(b"not an npz")
    assert np.allclose(_oracles.expected(neg, batch)[0][0], -np.eye(10))


def test_the_cache_can_be_turned_off(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("JACPUZZLES_CACHE", "off")
    assert _oracles.cache_dir() is None


def test_forward_and_reverse_disagreeing_is_reported_as_a_kit_bug(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("JACPUZZLES_CACHE", "off")
    real = _oracles._oracle

    def lying(puzzle):  # type: ignore[no-untyped-def]
        pair = real(puzzle)
        return lambda *args: (lambda fwd, rev: (fwd, rev + 1))(*pair(*args))

    monkeypatch.setattr(_oracles, "_oracle", lying)
    _oracles._program.cache_clear()
    try:
        with pytest.raises(_oracles.OracleDisagreement, match="bug in jacpuzzles, not in your answer"):
            _oracles.expected(_catalog.get("neg"), draws(_catalog.get("neg"), 0))  # type: ignore[arg-type]
        verdict = check_answer("neg", lambda x: -np.eye(10))
    finally:
        _oracles._program.cache_clear()
    assert verdict.status is Status.ERROR
    assert verdict.kinds() == (Kind.KIT_BUG,)


def test_a_disagreement_of_the_compiled_programs_alone_is_settled_op_by_op(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # XLA may compute an operation differently inside a fused program (red team RT33: GELU's
    # tanh at -8000): the draw is computed again op by op, and judged by that.
    monkeypatch.setenv("JACPUZZLES_CACHE", "off")
    real = _oracles._compute

    def lying(work):  # type: ignore[no-untyped-def]
        return [([f + 1 for f in fwd], rev) for fwd, rev in real(work)]

    monkeypatch.setattr(_oracles, "_compute", lying)
    neg = _catalog.get("neg")
    assert neg is not None
    expected = _oracles.expected(neg, draws(neg, 0))
    assert all(np.array_equal(blocks[0], -np.eye(10)) for blocks in expected)
    assert check_answer("neg", lambda x: -np.eye(10)).status is Status.PASS


def test_gelu_scaled_is_judged_where_its_compiled_forward_mode_rounds_tanh_short_of_one() -> None:
    # Red team RT33: every GELU variant with a gain but +-1 was a kit bug on some seed.
    from checker.engine import _variants

    puzzle = _variants.variant("gelu", {"gain": -0.5})
    for seed in (0, 1):
        verdict = check_answer("gelu", lambda x: np.diag(-0.5 * _gelu_slope(x)), seed=seed, variant={"gain": -0.5})
        assert verdict.status is Status.PASS, (seed, verdict.message)
    assert puzzle.variant


def _gelu_slope(x):  # type: ignore[no-untyped-def]
    import jax.numpy as jnp

    t = jnp.tanh(jnp.sqrt(2 / jnp.pi) * (x + 0.044715 * x**3))
    return 0.5 * (1 + t) + 0.5 * x * (1 - t**2) * jnp.sqrt(2 / jnp.pi) * (1 + 3 * 0.044715 * x**2)
