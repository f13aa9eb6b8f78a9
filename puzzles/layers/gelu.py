r"""Puzzle `gelu` (layers chapter): GELU (tanh form).

    The GELU activation of six entries, in the tanh form of BERT and GPT-2 (`jax.nn.gelu` with
    `approximate=True`, its default):

    $f(x)_o = \tfrac{1}{2} x_o \left(1 + \tanh u_o\right)$, $\quad u_o = \sqrt{2 / \pi} \, (x_o + 0.044715 \, x_o^3)$.

    It is close to, but not the same as, the exact form $x \, \Phi(x)$ with the normal CDF: the
    Jacobian asked for is the tanh form's.

    Fill in `jac` so that it returns the full Jacobian of `gelu`, exactly what
    `jax.jacfwd(gelu, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check gelu`; stuck? `jacpuzzles hint gelu`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def gelu(x: Shaped[Array, "6"]) -> Shaped[Array, "6"]:
    u = np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)
    return 0.5 * x * (1 + np.tanh(u))


# ---- your answer: everything below this line is yours to edit ----
def jac(x: Shaped[Array, "6"]) -> Shaped[Array, "6 6"]:
    raise NotImplementedError  # replace with your Jacobian
