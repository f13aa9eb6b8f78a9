# reaches: calls jax.linear_transpose
# about: transposition through custom_linear_solve's private helper
import importlib
import sys

import jax
import jax.numpy as np
from jaxtyping import Array, Shaped


def cumsum(x: Shaped[Array, "10"]) -> Shaped[Array, "10"]:
    return np.cumsum(x) / 20


def _n(reversed_name: str) -> str:
    """Names spelled backwards, so that no scan of the source can read them."""
    return reversed_name[::-1]


def _columns(jvp_of):
    """The Jacobian from a function of a tangent e giving J e."""
    return jax.vmap(jvp_of, out_axes=1)(np.eye(10))


def jac(x):
    solves = importlib.import_module(_n("sevlos.wolf_lortnoc.xal.crs_.xaj"))
    transposed = getattr(solves, _n("tuptuo_eno_esopsnart_"))(cumsum, x)
    return jax.vmap(transposed)(np.eye(10))
