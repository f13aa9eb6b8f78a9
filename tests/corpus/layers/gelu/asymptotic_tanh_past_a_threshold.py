# expect: fail cells
# Past u = 4.69, tanh u taken as 1 - 2e^-2u, "its next term e^-4u below 1e-8": the slope is then off
# by 1.09 times the contract for x between 3.6698 and 3.68, a sliver no random draw reached (red
# team RT34's F5).
# WITNESS: x = 3.6702 in every entry.
import jax.numpy as np
import numpy as onp

WITNESS = (onp.full(6, 3.6702),)


def jac(x):
    c = np.sqrt(2 / np.pi)
    u = c * (x + 0.044715 * x**3)
    t = np.where(u > 4.69, 1 - 2 * np.exp(-2 * u), np.tanh(u))
    slope = 0.5 * (1 + t) + 0.5 * x * (1 - t**2) * c * (1 + 3 * 0.044715 * x**2)
    return np.diag(slope)
