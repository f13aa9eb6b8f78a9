"""Reads the kit's reference answers and recorded Jacobians from disk (the checkout's solutions/,
the packaged copies): any it can read counts as a leak, and the answer then returns a wrong
Jacobian, so "pass" means every read was refused."""
import glob

import jax.numpy as np

LEAKS = []
for path in ["@KIT@/solutions/autodiff/cumsum.py", "@KIT@/checker/_data/solutions/autodiff/cumsum.py", "@KIT@/checker/_data/tf_recorded.npz",
             *glob.glob("@KIT@/solutions/*/*.py")[:3]]:
    try:
        with open(path, "rb") as f:
            if f.read(1):
                LEAKS.append(path)
    except OSError:
        pass


def jac(x):
    print(f"LEAKED {LEAKS}" if LEAKS else "nothing read")
    return np.tri(10) / (21 if LEAKS else 20)
