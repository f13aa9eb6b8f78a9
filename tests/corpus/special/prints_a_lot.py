# expect: pass
# puzzle: cumsum
# A correct answer that prints to stdout on every call.
import jax.numpy as np

Is = np.arange(10)
Os = np.arange(10)[:, None]


def jac(x):
    for o in range(10):
        print("debugging row", o, "of the Jacobian, x =", x)
    return (Is <= Os) / 20
