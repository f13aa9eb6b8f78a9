# expect: fail
# mistake: sqrt(2 / pi) written out as 0.79788456 (8 significant digits): right to 1e-9 relatively, wrong where the slope crosses zero
import jax.numpy as np

WITNESS = {"x": [-0.7524614220710163, 0.5, -0.7524614220710163, 1.0, -2.0, 3.0]}
C = 0.79788456


def jac(x):
    t = np.tanh(C * (x + 0.044715 * x**3))
    return np.diag(0.5 * (1 + t) + 0.5 * x * (1 - t**2) * C * (1 + 3 * 0.044715 * x**2))
