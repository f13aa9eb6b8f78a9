# expect: pass
# mistake: none: round half up with floor(x + 0.5), then step back at k + 0.5 when k is even
import jax.numpy as np

Is = np.arange(5)


def jac(arr, index):
    i = np.floor(index + 0.5) - (index % 2 == 0.5)
    return (1.0 * (Is == i), np.zeros(())), (np.zeros(5), np.ones(()))
