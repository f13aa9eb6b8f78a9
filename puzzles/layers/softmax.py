r"""Puzzle `softmax` (layers chapter): Softmax with a temperature.

    $f(x)_o = s_o = \dfrac{e^{x_o / T}}{\sum_{i} e^{x_i / T}}$ for five entries, with the temperature $T = 2$.

    Every output depends on every input: the denominator couples them. The checker also draws
    entries in the thousands, where `np.exp(x)` overflows; subtract the largest entry first.

    Fill in `jac` so that it returns the full Jacobian of `softmax`, exactly what
    `jax.jacfwd(softmax, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check softmax`; stuck? `jacpuzzles hint softmax`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def softmax(x: Shaped[Array, "5"]) -> Shaped[Array, "5"]:
    return jax.nn.softmax(x / 2)


# ---- your answer: everything below this line is yours to edit ----
def jac(x: Shaped[Array, "5"]) -> Shaped[Array, "5 5"]:
    raise NotImplementedError  # replace with your Jacobian
