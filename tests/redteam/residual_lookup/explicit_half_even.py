# expect: fail
# mistake: round half up with floor(x + 0.5), then step back at k + 0.5 when k is even; but one ulp
# below 0.5, x + 0.5 rounds up to 1.0, so the index rounds to 1 where f rounds it to 0
import jax.numpy as np

WITNESS = {"arr": [0.1, -0.2, 0.3, 0.4, -0.5], "index": 0.49999999999999994}

Is = np.arange(5)


def jac(arr, index):
    i = np.floor(index + 0.5) - (index % 2 == 0.5)
    return (1.0 * (Is == i), np.zeros(())), (np.zeros(5), np.ones(()))
