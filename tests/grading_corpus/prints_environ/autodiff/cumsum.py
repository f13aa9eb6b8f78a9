"""Prints its environment, as Python has it and as the kernel recorded it at exec time: the
grader's own variables (the tests set a secret-looking one) must not be among them."""
import os

import jax.numpy as np


def jac(x):
    print(dict(os.environ))
    try:
        with open("/proc/self/environ", "rb") as f:
            print(f.read().replace(b"\0", b" ").decode("utf-8", "replace"))
    except OSError as exc:  # as a uid of its own, the file is the zygote's (root's)
        print(f"/proc/self/environ: {exc}")
    return np.tri(10) / 20
