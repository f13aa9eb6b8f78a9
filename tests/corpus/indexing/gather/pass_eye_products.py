# expect: pass
# Correct: rows of the identity on 27 picked by idx, times the identity on the 4 columns.
import jax.numpy as np


def jac(embeddings, idx):
    rows = np.eye(27)[idx]  # (8, 3, 27)
    return rows[:, :, None, :, None] * np.eye(4)[None, None, :, None, :]
