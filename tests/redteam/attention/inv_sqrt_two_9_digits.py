# expect: fail
# mistake: 1 / sqrt(2) written out as 0.707106781 (9 significant digits): right to 1e-9 relatively, wrong where an entry crosses zero
import jax.numpy as np

WITNESS = {
    "q": [[0.8336166577878095, 0.6188480703089698], [-0.9375649726101947, -0.9618658812657773], [0.4051527978984017, 0.10477149582385639]],
    "k": [[0.6407618438108963, 0.7002165440307495], [0.474850957494013, 0.21875171920496375], [0.4489652549551645, -0.8003582962820216]],
    "v": [[-0.5777761446545533, 0.1359430572569063], [0.4480977381670363, 0.033100169493654824], [-0.40331536457266326, -0.2971503980429912]],
}
I = np.arange(3)[:, None, None, None]
A = np.arange(2)[:, None, None]
C = np.arange(3)[:, None]
D = np.arange(2)
ALLOWED = np.tril(np.ones((3, 3), dtype=bool))
R = 0.707106781


def jac(q, k, v):
    scores = np.where(ALLOWED, q @ k.T * R, -np.inf)
    e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    p = e / np.sum(e, axis=1, keepdims=True)
    out = p @ v
    g = p[:, None, :] * (v.T[None, :, :] - out[:, :, None])
    dq = (I == C) * (g @ k)[:, :, None, :] * R
    dk = g[:, :, :, None] * q[:, None, None, :] * R
    dv = p[:, None, :, None] * (A == D)
    return dq, dk, dv
