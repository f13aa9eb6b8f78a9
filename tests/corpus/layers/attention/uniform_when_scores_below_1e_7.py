# expect: fail cells
# Takes a row's weights as uniform once every score is below 1e-7 ("rounding noise"): off by
# about the scores' size, beyond the contract where an entry of the Q block crosses zero under
# uniform weights (red team RT38).
# WITNESS: q of order 5e-8, k ordinary, v's second column uncorrelated with k's first column.
import jax.numpy as np
import numpy as onp

I = np.arange(3)[:, None, None, None]
A = np.arange(2)[:, None, None]
C = np.arange(3)[:, None]
D = np.arange(2)
ALLOWED = np.tril(np.ones((3, 3), dtype=bool))

_K = onp.array([[0.6, 0.1], [-0.4, 0.8], [0.2, -0.7]])
_V = onp.array([[0.9, -0.6], [-0.3, 0.5], [0.1, 0.7]])
_DEVIATION = _K[:, 0] - _K[:, 0].mean()
_V[0, 1] = -(_V[1, 1] * _DEVIATION[1] + _V[2, 1] * _DEVIATION[2]) / _DEVIATION[0]
WITNESS = (5e-8 * onp.array([[0.3, -0.8], [0.7, 0.2], [-0.5, 0.9]]), _K, _V)


def jac(q, k, v):
    raw = q @ k.T / np.sqrt(2.0)
    scores = np.where(ALLOWED, raw, -np.inf)
    e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    p = e / np.sum(e, axis=1, keepdims=True)
    noise = np.all(np.where(ALLOWED, np.abs(raw) < 1e-7, True), axis=1, keepdims=True)
    p = np.where(noise, ALLOWED / np.sum(ALLOWED, axis=1, keepdims=True), p)
    out = p @ v
    g = p[:, None, :] * (v.T[None, :, :] - out[:, :, None])
    dq = (I == C) * (g @ k)[:, :, None, :] / np.sqrt(2.0)
    dk = g[:, :, :, None] * q[:, None, None, :] / np.sqrt(2.0)
    dv = p[:, None, :, None] * (A == D)
    return dq, dk, dv
