r"""Puzzle `cumsum` (autodiff chapter): Cumulative sum.

    $f(x)_o = \frac{1}{20} \sum_{i=0}^{o} x_i$ for ten entries: a running total, scaled by 1/20.

    Fill in `jac` so that it returns the full Jacobian of `cumsum`, exactly what
    `jax.jacfwd(cumsum, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check cumsum`; stuck? `jacpuzzles hint cumsum`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def cumsum(x: Shaped[Array, "10"]) -> Shaped[Array, "10"]:
    return np.cumsum(x) / 20


# ---- your answer: everything below this line is yours to edit ----
import json
import os
import time

# Try to forge another student's journal entry and plant a file in the grader's OUT folder.
OUT = "@OUT@"
deadline = time.monotonic() + 1.5
while not os.path.exists(f"{OUT}/victim.json") and time.monotonic() < deadline:
    time.sleep(0.05)
try:
    with open(f"{OUT}/victim.json") as f:
        forged = json.load(f)
    forged["score"] = -100
    with open(f"{OUT}/victim.json", "w") as f:
        json.dump(forged, f)
except OSError as exc:
    print("could not forge:", exc)
try:
    with open(f"{OUT}/planted.txt", "w") as f:
        f.write("planted by a submission")
except OSError as exc:
    print("could not plant:", exc)

Is = np.arange(10)
Os = np.arange(10)[:, None]


def jac(x: Shaped[Array, "10"]) -> Shaped[Array, "10 10"]:
    return (Is <= Os) / 20
