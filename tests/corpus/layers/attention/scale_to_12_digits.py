# expect: fail at-a-zero
# sqrt(2) typed as 1.41421356237 (12 significant digits, 2.2e-13 off relatively) wherever the
# answer divides by it. Right to 1e-12 almost everywhere; wrong at a zero of the Q block whose
# terms are large beside the block, where the contract allows 1e-12 of the block's largest entry
# (red team RT39's F1: 1.37 times the contract at the witness).
import jax.numpy as np
import numpy as onp

I = np.arange(3)[:, None, None, None]
A = np.arange(2)[:, None, None]
C = np.arange(3)[:, None]
D = np.arange(2)
ALLOWED = np.tril(np.ones((3, 3), dtype=bool))
ROOT_2 = 1.41421356237

WITNESS = (
    onp.array([[-0.780038687748386, -0.32031360016483157], [0.8933031151890857, -0.808671500839079],
               [0.7839071861273477, -0.42062295037071923]]),
    onp.array([[-0.8145800918300095, 0.23357561013946943], [0.6782171908434422, -0.21067993018524953],
               [-0.21729913026928918, -0.5059907209818255]]),
    onp.array([[-0.30799985819358033, -0.8418749856059815], [-0.014372349231532047, -0.3623122896348506],
               [-0.5492446383848801, 0.4210926455896727]]),
)


def jac(q, k, v):
    scores = np.where(ALLOWED, q @ k.T / ROOT_2, -np.inf)
    weights = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    weights = weights / np.sum(weights, axis=1, keepdims=True)
    out = weights @ v
    coupling = weights[:, None, :] * (v.T[None, :, :] - out[:, :, None])
    dq = (I == C) * (coupling @ k)[:, :, None, :] / ROOT_2
    dk = coupling[:, :, :, None] * q[:, None, None, :] / ROOT_2
    dv = weights[:, None, :, None] * (A == D)
    return dq, dk, dv
