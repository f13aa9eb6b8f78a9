"""Adversarial answers: mathematically wrong `jac`s must never get `Status.PASS`.

Two groups:

* Known false passes (tests that FAIL until the checker is fixed; deliberately not xfail):
  - running_mean with 0.3333 for 1/3: wrong by 1.0e-4 relative (about 800 float32 ulps) on every
    input, accepted because rtol (1e-4) + atol * scale (1e-5) leaves 1.1e-4 of room.
  - cos with a small-angle shortcut (-x for |x| < 0.2): wrong by up to 0.7 % for
    0.026 < |x| < 0.2 (6 % of the domain [-3, 3]), accepted because a one-entry argument gets
    only 6 random scalars (seed 0 draws none below |x| = 0.28) and its two zero-entry draws are
    both x = 0.
* Realistic wrong answers the checker fails, on every seed tried.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax.numpy as jnp
import pytest

from checker import Status, check_answer

SEEDS = range(5)

I10 = jnp.arange(10)[None, :]
O10 = jnp.arange(10)[:, None]
EYE10 = I10 == O10
A4 = jnp.arange(4)


def _assert_fails(name: str, jac: Callable[..., Any]) -> None:
    passed = [seed for seed in SEEDS if check_answer(name, jac, seed=seed).status is Status.PASS]
    assert not passed, f"wrong {name} answer passes on seeds {passed}"


# ---- known false passes: these fail until the checker is fixed ----


def _running_mean_band() -> jnp.ndarray:
    o8 = jnp.arange(8)[:, None]
    return (I10 >= o8) & (I10 < o8 + 3)


def test_running_mean_with_a_rounded_third_fails() -> None:
    # 0.3333 instead of 1/3: the relative error 1.0e-4 is far beyond float32 rounding (6e-8).
    _assert_fails("running_mean", lambda x: _running_mean_band() * 0.3333)


def test_cos_with_a_small_angle_shortcut_fails() -> None:
    # sin(x) ~ x "for small x": off by x**2 / 6 relative, 1e-4 already at |x| = 0.026.
    _assert_fails("cos", lambda x: jnp.where(jnp.abs(x) < 0.2, -x, -jnp.sin(x))[:, None])


# ---- realistic wrong answers the checker fails ----

REGRESSIONS: dict[str, tuple[str, Callable[..., Any]]] = {
    # prod: handles one zero entry, but with two zeros d f / d x_k is 0, not the product of the rest.
    "prod_one_zero_only": (
        "prod",
        lambda x: jnp.where(x == 0, jnp.prod(jnp.where(x == 0, 1, x)), jnp.prod(x) / jnp.where(x == 0, 1, x))[None, :],
    ),
    "prod_abs": ("prod", lambda x: jnp.prod(jnp.where(EYE10, 1, jnp.abs(x)), axis=1)[None, :]),
    "prod_wrong_axis": ("prod", lambda x: jnp.prod(jnp.where(EYE10, 1, x), axis=0)[None, :]),
    "sort_rank_transposed": ("sort", lambda x: (I10 == jnp.argsort(jnp.argsort(x))[:, None]).astype(jnp.float32)),
    "sort_by_abs": ("sort", lambda x: (I10 == jnp.argsort(jnp.abs(x))[:, None]).astype(jnp.float32)),
    "relu_abs": ("relu", lambda x: EYE10 * (jnp.abs(x) > 0)),
    "cos_abs": ("cos", lambda x: -jnp.sin(jnp.abs(x))[:, None]),
    "cos_mod_pi": ("cos", lambda x: -jnp.sin(x % jnp.pi)[:, None]),
    "running_mean_0333": ("running_mean", lambda x: _running_mean_band() * 0.333),
    "mul_blocks_swapped": ("mul", lambda x, y: (EYE10 * x, EYE10 * y)),
    "mean_reduce_wrong_axis": (
        "mean_reduce",
        lambda x: jnp.broadcast_to((A4[:, None, None] == A4[None, :, None]) / 4, (4, 4, 4)),
    ),
    "broadcast_row_scale": (
        "broadcast",
        lambda x, y: (
            (
                (A4[:, None, None, None] == A4[None, None, :, None])
                & (A4[None, :, None, None] == A4[None, None, None, :])
            )
            * y[:, None, None, None],
            (A4[None, :, None] == A4[None, None, :]) * x[:, :, None],
        ),
    ),
    "matmul_transposed_factors": (
        "matmul",
        lambda x, y: (
            (A4[:, None] // 2 == A4[None, :] // 2) * y.reshape(2, 2)[A4[:, None] % 2, A4[None, :] % 2],
            (A4[:, None] % 2 == A4[None, :] % 2) * x.reshape(2, 2)[A4[None, :] // 2, A4[:, None] // 2],
        ),
    ),
}


@pytest.mark.parametrize("case", sorted(REGRESSIONS))
def test_realistic_wrong_answer_fails(case: str) -> None:
    name, jac = REGRESSIONS[case]
    _assert_fails(name, jac)


# ---- classes of wrong answer, each written afresh here ----

IS5 = jnp.arange(5)


def _lookup(arr, index, whole, t_of):  # type: ignore[no-untyped-def]
    lo, hi = jnp.floor(index), jnp.ceil(index)
    t = jnp.where(whole, 0.0, t_of(index, lo))
    i1, i2 = lo.astype(jnp.int32), hi.astype(jnp.int32)
    return (1 - t) * (IS5 == i1) + t * (IS5 == i2), jnp.where(whole, 0.0, arr[i2] - arr[i1])


def _bulk(arr, indices, whole):  # type: ignore[no-untyped-def]
    lo, hi = jnp.floor(indices), jnp.ceil(indices)
    t = jnp.where(whole, 0.0, indices - lo)[:, None]
    i1, i2 = jnp.clip(lo, 0, 4).astype(jnp.int32), jnp.clip(hi, 0, 4).astype(jnp.int32)
    w = (1 - t) * (IS5 == i1[:, None]) + t * (IS5 == i2[:, None])
    return w, jnp.diag(jnp.where(whole, 0.0, arr[i2] - arr[i1]))


A3 = jnp.arange(3)
EYE4 = jnp.arange(4)[:, None] == jnp.arange(4)


def _scatter_update_f(vector, index, target):  # type: ignore[no-untyped-def]
    mask = jnp.zeros_like(vector).at[index].set(1.0)
    return vector * (1 - mask) + mask * target


def _nearest_in_float16(v, k, g):  # type: ignore[no-untyped-def]
    r = v[jnp.arange(2), jnp.argmax(k, axis=1)]
    v16, target16 = v.astype(jnp.float16), (r - g).astype(jnp.float16)
    nearest = jnp.argmin((v16 - target16[:, None]) ** 2, axis=1)
    return g[:, None] * k, jnp.abs(g)[:, None] * (1 - 2 * (A3 == nearest[:, None]))


REVIEW_CLASSES: dict[str, tuple[str, Callable[..., Any]]] = {
    "integrality by isclose": (
        "linear_lookup_corrected",
        lambda arr, index: _lookup(arr, index, jnp.isclose(index, jnp.round(index)), lambda x, lo: x - lo),
    ),
    "integrality in float16": (
        "linear_lookup_corrected",
        lambda arr, index: _lookup(
            arr, index, index.astype(jnp.float16) == jnp.round(index.astype(jnp.float16)), lambda x, lo: x - lo
        ),
    ),
    "bulk branch on any()": (
        "bulk_superposition_lookup_corrected",
        lambda arr, indices: _bulk(arr, indices, jnp.full(5, bool((jnp.floor(indices) == jnp.ceil(indices)).any()))),
    ),
    "relu threshold 1e-6": ("relu", lambda x: jnp.diag(1.0 * (x > 1e-6))),
    "relu by finite differences": (
        "relu", lambda x: jnp.diag((jnp.maximum(x + 1e-6, 0) - jnp.maximum(x - 1e-6, 0)) / 2e-6)
    ),
    "prod with eps": ("prod", lambda x: (jnp.prod(x + 1e-12) / (x + 1e-12))[None, :]),
    "mask from f's output": (
        "scatter_update",
        lambda vector, index, target: (
            1.0 * EYE4 * (_scatter_update_f(vector, index, target) == vector)[:, None],
            1.0 * (_scatter_update_f(vector, index, target) != vector),
        ),
    ),
    "nearest value in float16": ("asymmetrical_vectored_lookup", _nearest_in_float16),
}


@pytest.mark.parametrize("case", sorted(REVIEW_CLASSES))
def test_the_review_classes_fail_on_every_seed(case: str) -> None:
    name, answer = REVIEW_CLASSES[case]
    _assert_fails(name, answer)
