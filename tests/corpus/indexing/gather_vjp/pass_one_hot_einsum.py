# expect: pass
# Correct: the one-hot of idx (built with np.eye) contracted with g over the batch axes.
import jax.numpy as np


def vjp(embeddings, idx, g):
    return np.einsum("abr,abc->rc", np.eye(27)[idx], g)
