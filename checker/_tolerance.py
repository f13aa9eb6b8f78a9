"""When an answer's entry counts as equal to the expected one: tolerances per dtype.

An entry passes when `|yours - expected| <= atol * scale + rtol * |expected|`, where `scale` is
the largest magnitude in that expected Jacobian. The scale keeps a Jacobian whose entries are all
around 1e18 (a product of large numbers) from failing on float32 rounding, while an entry that is
wrong by more than rounding still fails. There is deliberately no floor under the scale of a
block with any nonzero entry: at an input with a zero entry, prod's Jacobian has a single nonzero
entry, often below 1e-4, and an answer that puts 0 there must fail however small that entry is.
An all-zero block is compared at scale 1. NaN and inf never pass.

float32 allows 1e-5 relative: the reference answers stay within 4e-7 of jax.jacfwd over 40 seeds,
while 0.3333 for 1/3 (3e-5 off, 1e-4 relative) fails.
"""

from __future__ import annotations

import numpy as np
from beartype import beartype
from jaxtyping import Bool, Shaped, jaxtyped

_TINY = float(np.finfo(np.float32).tiny)  # below this, a difference is no number at all

# (rtol, atol) for the dtype the expected Jacobian is computed in.
TOLERANCES: dict[str, tuple[float, float]] = {
    "float32": (1e-5, 1e-6),
    "float64": (1e-9, 1e-12),
}


def close(actual: np.ndarray | np.generic, expected: np.ndarray | np.generic) -> np.ndarray:
    """A boolean array, True where `actual` matches `expected` within the dtype's tolerance.

    Both have the same shape (checked at run time); NaN or inf in either gives False. A scalar
    block (the derivative of a scalar by a scalar) is a 0-d array.
    """
    return _close(np.asarray(actual), np.asarray(expected))


@jaxtyped(typechecker=beartype)
def _close(actual: Shaped[np.ndarray, "*jac"], expected: Shaped[np.ndarray, "*jac"]) -> Bool[np.ndarray, "*jac"]:
    """`close` on arrays of one shape."""
    rtol, atol = TOLERANCES.get(np.asarray(expected).dtype.name, TOLERANCES["float32"])
    e = np.asarray(expected, dtype=np.float64)
    a = np.asarray(actual, dtype=np.float64)
    finite = np.isfinite(e)
    # An all-zero block has no scale of its own; 1 lets a correct formula's rounding through
    # (cos(x + pi/2) at x = 0 is -4e-8, not 0).
    scale = float(np.max(np.abs(e[finite]), initial=0.0)) or 1.0
    with np.errstate(invalid="ignore", over="ignore"):
        ok = np.abs(a - e) <= atol * scale + rtol * np.abs(e) + _TINY
    return np.asarray(ok & np.isfinite(a) & finite)
