# expect: fail near-lattice
# Rounds half to even by hand, counting an index as k + 0.5 when it is within 1e-15 of it: one
# ulp above 2.5 is not a tie, f reads arr[3], and this answer points at arr[2].
# WITNESS: index = 2.5 + 2^-51.
import jax.numpy as np
import numpy as onp

Is = np.arange(5)
WITNESS = (onp.array([0.45, -0.6, 0.15, 0.85, -0.35]), onp.nextafter(2.5, 3.0))


def jac(arr, index):
    lo = np.floor(index)
    frac = index - lo
    tie = np.abs(frac - 0.5) < 1e-15
    even = np.where(lo % 2 == 0, lo, lo + 1)
    picked = np.where(tie, even, np.where(frac > 0.5, lo + 1, lo))
    return 1.0 * (Is == picked), np.zeros(())
