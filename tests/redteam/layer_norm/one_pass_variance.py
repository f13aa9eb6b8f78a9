# expect: fail
# mistake: the variance in one pass, E[x^2] - E[x]^2: right to 1e-10 on the domain, but it cancels where the entries share a large offset and differ by little
import jax.numpy as np

# Inside the region layers.toml declares for x (`offsets = [1000.0]`: a common offset of 1000 to 10000, a spread below 1e-3).
WITNESS = {"x": [8487.590746683225, 8487.590594533935, 8487.590515001013, 8487.590238512512, 8487.591039119317]}


def jac(x):
    mu = np.mean(x)
    sigma = np.sqrt(np.mean(x**2) - mu**2 + 1e-5)
    y = (x - mu) / sigma
    return (np.eye(5) - 1 / 5 - y[:, None] * y[None, :] / 5) / sigma
