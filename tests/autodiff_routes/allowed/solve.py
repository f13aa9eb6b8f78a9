# about: jnp.linalg.solve, whose forward pass JAX builds with a transposition (custom_linear_solve)
import jax.numpy as np
from jaxtyping import Array, Shaped


def jac(x: Shaped[Array, "10"]) -> Shaped[Array, "10 10"]:
    return np.linalg.solve(20 * np.eye(10), np.tri(10))
