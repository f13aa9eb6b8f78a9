# about: defining a custom_jvp and calling it, stop_gradient and jax.nn.relu: forward passes only
import jax
import jax.numpy as np
from jaxtyping import Array, Shaped


@jax.custom_jvp
def twentieth(t):
    return t / 20


twentieth.defjvp(lambda primals, tangents: (twentieth(primals[0]), tangents[0] / 20))


def jac(x: Shaped[Array, "10"]) -> Shaped[Array, "10 10"]:
    ones = jax.nn.relu(jax.lax.stop_gradient(np.tri(10)))
    return twentieth(ones) + 0 * jax.nn.softplus(x)[:, None] * 0
