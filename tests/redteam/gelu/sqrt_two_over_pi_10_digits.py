# expect: fail
# mistake: sqrt(2 / pi) written out as 0.7978845608 (10 significant digits): right to 1e-9 relatively, wrong where the slope crosses zero
import jax.numpy as np

WITNESS = {"x": [-2.9216112113764856, -3.173465119697384, -3.357204569410986, -3.3943985004219193, -3.320138603641865, -0.7524614220710163]}
C = 0.7978845608


def jac(x):
    t = np.tanh(C * (x + 0.044715 * x**3))
    return np.diag(0.5 * (1 + t) + 0.5 * x * (1 - t**2) * C * (1 + 3 * 0.044715 * x**2))
