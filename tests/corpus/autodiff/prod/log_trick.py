# expect: fail zero-division
# prod via exp(sum(log x)): NaN as soon as an entry is negative, inf/NaN at a zero entry; the
# simplest failing draw shown is the one with a single zero entry, hence the division diagnosis.
import jax.numpy as np

def jac(x):
    return (np.exp(np.sum(np.log(x))) / x)[None, :]
