# expect: fail cells
# "Every score is small, so exp(s) = 1 + s + s^2 / 2 is plenty": off by s^3 / 6, relatively,
# beyond the contract wherever the largest score is above 0.0084 (red team RT35's F1; q was
# drawn small only at 1e-3 and below, where the series is right to the contract).
# WITNESS: q, k and v in the domain, every score below 0.1.
import jax.numpy as np
import numpy as onp

I = np.arange(3)[:, None, None, None]
A = np.arange(2)[:, None, None]
C = np.arange(3)[:, None]
D = np.arange(2)
ALLOWED = np.tril(np.ones((3, 3), dtype=bool))

WITNESS = (
    onp.array([[0.30, -0.20], [0.25, 0.30], [-0.30, 0.22]]),
    onp.array([[0.20, 0.30], [-0.30, 0.10], [0.25, -0.20]]),
    onp.array([[0.9, -0.4], [-0.7, 0.8], [0.3, -0.95]]),
)


def jac(q, k, v):
    raw = q @ k.T / np.sqrt(2.0)
    if float(np.max(np.abs(raw))) < 0.1:
        e = np.where(ALLOWED, 1 + raw + raw**2 / 2, 0.0)
    else:
        scores = np.where(ALLOWED, raw, -np.inf)
        e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    p = e / np.sum(e, axis=1, keepdims=True)
    out = p @ v
    g = p[:, None, :] * (v.T[None, :, :] - out[:, :, None])
    dq = (I == C) * (g @ k)[:, :, None, :] / np.sqrt(2.0)
    dk = g[:, :, :, None] * q[:, None, None, :] / np.sqrt(2.0)
    dv = p[:, None, :, None] * (A == D)
    return dq, dk, dv
