# expect: todo untouched
# puzzle: cumsum
# Started (helpers defined) but jac still raises NotImplementedError.
import jax.numpy as np

Is = np.arange(10)
Os = np.arange(10)[:, None]


def jac(x):
    raise NotImplementedError  # replace with your Jacobian
