"""Makes a folder its owner can neither list nor empty (`mkdir(name, 0o300)`: write and enter
only), with a file in it (red team RT16: as a plain user's worker, 3.9 GB of such files outlived
the grader, and filled the next run's disk). "pass" means it ran; the test checks that the
grader's scratch folder is empty once grading ends."""
import os

import jax.numpy as np

locked = os.path.join(os.environ["HOME"], "keep")
os.mkdir(locked, 0o300)
with open(os.path.join(locked, "left"), "wb") as f:
    f.write(b"\1" * (1 << 20))


def jac(x):
    return np.tri(10) / 20
