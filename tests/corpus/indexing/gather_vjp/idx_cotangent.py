# expect: error structure
# Returns a cotangent for idx too (zeros): idx is an integer argument, so the answer is d_embeddings alone.
import jax.numpy as np


def vjp(embeddings, idx, g):
    return np.zeros((27, 4)).at[idx].add(g), np.zeros((8, 3))
