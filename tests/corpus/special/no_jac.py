# expect: error missing
# puzzle: cumsum
# Defines its helpers but no function named jac.
import jax.numpy as np

Is = np.arange(10)
Os = np.arange(10)[:, None]


def jacobian(x):
    return (Is <= Os) / 20
