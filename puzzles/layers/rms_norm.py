r"""Puzzle `rms_norm` (layers chapter): RMS norm.

    RMS normalisation of $x \in \mathbb{R}^{5}$, as in many language models (without the learned gain):

    $r = \sqrt{\frac{1}{N} \sum_i x_i^2 + \varepsilon}$, $\quad f(x)_o = x_o / r$,

    with $N = 5$ and $\varepsilon = 10^{-5}$. Unlike layer norm, nothing is subtracted: the only
    coupling is through $r$.

    Fill in `jac` so that it returns the full Jacobian of `rms_norm`, exactly what
    `jax.jacfwd(rms_norm, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check rms_norm`; stuck? `jacpuzzles hint rms_norm`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def rms_norm(x: Shaped[Array, "5"]) -> Shaped[Array, "5"]:
    return x / np.sqrt(np.mean(x**2) + 1e-5)


# ---- your answer: everything below this line is yours to edit ----
def jac(x: Shaped[Array, "5"]) -> Shaped[Array, "5 5"]:
    raise NotImplementedError  # replace with your Jacobian
