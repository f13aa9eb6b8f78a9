"""Opens as many pipes as it may (red team, round 15: two workers of 1024 descriptors each held
512 pipes, their user's whole quota of pipe buffers, fs.pipe-user-pages-soft, and left every
other process of that user 4 KB pipes), then closes them, so that its worker can write its
results. "pass" means at most 64 pipes could be opened."""
import os

import jax.numpy as np

held = []
try:
    for _ in range(600):
        held.append(os.pipe())
except OSError:
    pass
count = len(held)
for pair in held:
    os.close(pair[0])
    os.close(pair[1])
many = count > 64


def jac(x):
    print(f"LEAKED: {count} pipes" if many else f"{count} pipes at most")
    return np.tri(10) / (21 if many else 20)
