# expect: fail at-a-zero
# 1/sqrt(2) typed as the multiplier 0.707106781187 (12 significant digits). Off by 1e-12
# relatively or less, which shows only at a zero of the Q or K block whose terms are large beside
# the block: with q and k at 3 times the domain (red team RT39's F1b: 4.4 times the contract at
# the witness, where the exact constant is at 0.3).
import jax.numpy as np
import numpy as onp

I = np.arange(3)[:, None, None, None]
A = np.arange(2)[:, None, None]
C = np.arange(3)[:, None]
D = np.arange(2)
ALLOWED = np.tril(np.ones((3, 3), dtype=bool))

WITNESS = (
    onp.array([[-1.9112650702777638, -0.00439061531551832], [-2.6231624309844217, -1.341716004117563],
               [1.374141485230091, 2.3040847756334655]]),
    onp.array([[2.42939738766183, 1.2203590821122923], [-0.41071234753015384, -1.4854548668451284],
               [0.042473738665325333, 0.2647245194730162]]),
    onp.array([[-0.5125594225906915, 0.5321791455584095], [0.11322584216442674, 0.41436151727228754],
               [-0.5403444264228101, 0.5249288066520639]]),
)


def jac(q, k, v):
    scores = np.where(ALLOWED, q @ k.T * 0.707106781187, -np.inf)
    weights = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    weights = weights / np.sum(weights, axis=1, keepdims=True)
    coupling = weights[:, None, :] * (v.T[None, :, :] - (weights @ v)[:, :, None])
    dq = (I == C) * (coupling @ k)[:, :, None, :] * 0.707106781187
    dk = coupling[:, :, :, None] * q[:, None, None, :] * 0.707106781187
    dv = weights[:, None, :, None] * (A == D)
    return dq, dk, dv
