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
    real = _oracles._compute

    def lying(work):  # type: ignore[no-untyped-def]
        return [(fwd, [r + 1 for r in rev]) for fwd, rev in real(work)]

    monkeypatch.setattr(_oracles, "_compute", lying)
    with pytest.raises(_oracles.OracleDisagreement, match="bug in jacpuzzles, not in your answer"):
        _oracles.expected(_catalog.get("neg"), draws(_catalog.get("neg"), 0))  # type: ignore[arg-type]
    verdict = check_answer("neg", lambda x: -np.eye(10))
    assert verdict.status is Status.ERROR
    assert verdict.kinds() == (Kind.KIT_BUG,)
