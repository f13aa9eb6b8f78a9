r"""Puzzle `layer_norm` (layers chapter): Layer norm.

    Layer normalisation of $x \in \mathbb{R}^{5}$ (without the learned gain and bias):

    $\mu = \frac{1}{N} \sum_i x_i$, $\quad v = \frac{1}{N} \sum_i (x_i - \mu)^2$, $\quad \sigma = \sqrt{v + \varepsilon}$, $\quad f(x)_o = y_o = (x_o - \mu) / \sigma$,

    with $N = 5$ and $\varepsilon = 10^{-5}$. Both $\mu$ and $\sigma$ depend on every input.

    Fill in `jac` so that it returns the full Jacobian of `layer_norm`, exactly what
    `jax.jacfwd(layer_norm, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check layer_norm`; stuck? `jacpuzzles hint layer_norm`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def layer_norm(x: Shaped[Array, "5"]) -> Shaped[Array, "5"]:
    centred = x - np.mean(x)
    return centred / np.sqrt(np.mean(centred**2) + 1e-5)


# ---- your answer: everything below this line is yours to edit ----
def jac(x: Shaped[Array, "5"]) -> Shaped[Array, "5 5"]:
    raise NotImplementedError  # replace with your Jacobian
