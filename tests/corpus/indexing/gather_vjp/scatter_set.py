# expect: fail repeated-indices
# Writes each row of g into the table with `.at[idx].set`: a repeated id keeps only the last row instead of the sum.
import jax.numpy as np


def vjp(embeddings, idx, g):
    return np.zeros((27, 4)).at[idx].set(g)
