"""How far a one-pass variance is off on the offset draws, against a right layer norm's rounding.

    PYTHONPATH=$PWD python3 bench/offsets.py [--draws 200]

Draws `x` as the sampler's offset draws do (`_sampling._offset`: a common offset of 1000 to 10000,
either sign, a spread of 1e-4 to 1e-3) for every size of layer_norm's variants (gain 1), and prints, in
multiples of the contract (`atol * s + rtol * |expected|`, float64: 1e-12 and 1e-7), the largest
error of the reference answer (two-pass) and the smallest, median and largest error of the one-pass
variance E[x^2] - E[x]^2, both against `jax.jacfwd` of the catalog's f (docs/checker.md quotes them).
"""

from __future__ import annotations

import argparse

import jax
import jax.numpy as jnp
import numpy as np

from checker.engine import _catalog, _sampling, _variants


def _answers(n: int):  # type: ignore[no-untyped-def]
    def two_pass(x):  # type: ignore[no-untyped-def]
        sigma = jnp.sqrt(jnp.mean((x - jnp.mean(x)) ** 2) + 1e-5)
        y = (x - jnp.mean(x)) / sigma
        return (jnp.eye(n) - 1 / n - y[:, None] * y[None, :] / n) / sigma

    def one_pass(x):  # type: ignore[no-untyped-def]
        mu = jnp.mean(x)
        sigma = jnp.sqrt(jnp.mean(x**2) - mu**2 + 1e-5)
        y = (x - mu) / sigma
        return (jnp.eye(n) - 1 / n - y[:, None] * y[None, :] / n) / sigma

    return jax.jit(two_pass), jax.jit(one_pass)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=200)
    draws = parser.parse_args().draws
    jax.config.update("jax_enable_x64", True)
    base = _catalog.get("layer_norm")
    assert base is not None
    rng = np.random.default_rng(0)
    right, wrong = [], []
    sizes = sorted({p.args[0].shape for p in _variants.variants(base)})
    for shape in sizes:
        puzzle = next(p for p in _variants.variants(base) if p.args[0].shape == shape
                      and dict(p.variant).get("gain", 1) == 1)
        arg = puzzle.args[0]
        expected_of = jax.jit(jax.jacfwd(puzzle.f))
        two_pass, one_pass = _answers(shape[0])
        for _ in range(draws // len(sizes)):
            x = jnp.asarray(_sampling._offset(arg, arg.offsets[0], rng))
            expected = np.asarray(expected_of(x))
            tolerance = 1e-12 * np.max(np.abs(expected)) + 1e-7 * np.abs(expected)
            right.append(float(np.max(np.abs(np.asarray(two_pass(x)) - expected) / tolerance)))
            wrong.append(float(np.max(np.abs(np.asarray(one_pass(x)) - expected) / tolerance)))
    print(f"{len(right)} offset draws of layer_norm's x (sizes {', '.join(str(s[0]) for s in sizes)})")
    print(f"reference answer: at most {max(right):.2g} times the contract")
    print(f"one-pass variance: {min(wrong):.3g} to {max(wrong):.3g} times the contract, median {np.median(wrong):.3g}")


if __name__ == "__main__":
    main()
