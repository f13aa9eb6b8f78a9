r"""Puzzle `running_mean` (autodiff chapter): Running mean.

    $f(x)_o = \frac{1}{3}(x_o + x_{o+1} + x_{o+2})$ for $o = 0, \ldots, 7$: a mean over a sliding
    window of width 3 (a "valid" convolution with `ones(3) / 3`), so 10 inputs give 8 outputs.

    Fill in `jac` so that it returns the full Jacobian of `running_mean`, exactly what
    `jax.jacfwd(running_mean, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check running_mean`; stuck? `jacpuzzles hint running_mean`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def running_mean(x: Shaped[Array, "10"]) -> Shaped[Array, "8"]:
    return np.convolve(x, np.ones(3) / 3, mode="valid")


# ---- your answer: everything below this line is yours to edit ----
def jac(x: Shaped[Array, "10"]) -> Shaped[Array, "8 10"]:
    raise NotImplementedError  # replace with your Jacobian
