# expect: fail
# mistake: I count the zeros with np.isclose so rounding can't fool me; two "zeros" make every derivative 0
import jax.numpy as np

WITNESS = {"x": [0.0, 9e-9, 0.9, -0.95, 0.8, 0.85, -0.9, 0.99, 0.7, -0.75]}


def jac(x):
    zero = np.isclose(x, 0.0)
    n_zero = np.sum(zero)
    safe = np.where(zero, 1.0, x)
    rest = np.prod(safe)  # product of the non-zero entries
    d = np.where(n_zero == 0, rest / safe, np.where(n_zero == 1, np.where(zero, rest, 0.0), 0.0))
    return d[None, :]
