# expect: fail
# mistake: each feature's variance in one pass, E[x^2] - E[x]^2: it cancels where a column's entries share a large offset and differ by little
import jax.numpy as np

# Inside the region layers.toml declares for x (`offsets = [1000.0]`: a common offset of 1000 to 10000, a spread below 1e-3).
WITNESS = {"x": [[9446.25194124925, 9446.252894654452], [9446.251990047658, 9446.252620167104], [9446.251350721952, 9446.251994497763], [9446.251591456052, 9446.252341886302]]}
A = np.arange(4)[:, None, None, None]
D = np.arange(2)[:, None, None]
C = np.arange(4)[:, None]
E = np.arange(2)


def jac(x):
    mu = np.mean(x, axis=0)
    sigma = np.sqrt(np.mean(x**2, axis=0) - mu**2 + 1e-5)
    y = (x - mu) / sigma
    within = (A == C) - 1 / 4 - y[:, :, None, None] * y.T[None, :, :, None] / 4
    return within / sigma[None, :, None, None] * (D == E)
