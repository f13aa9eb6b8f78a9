# expect: fail nonfinite
# prod via exp(sum(log x)): NaN as soon as an entry is negative.
import jax.numpy as np

def jac(x):
    return (np.exp(np.sum(np.log(x))) / x)[None, :]
