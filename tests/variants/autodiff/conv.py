Is = np.arange(10)
Os = np.arange({{w.out}})[:, None]
Ks = np.arange({{w}})
LAST = {{w.last}}


def jac(x, y):
    k = Is - Os  # the kernel tap (before the flip) input i meets in output o
    dx = np.where((k >= 0) & (k <= LAST), y[np.clip(LAST - k, 0, LAST)], 0) / {{w}}
    return dx, x[Os + LAST - Ks] / {{w}}


_unscaled = jac


def jac(*args):  # the variant's scale multiplies every block
    return jax.tree_util.tree_map(lambda block: {{scale}} * (1.0 * block), _unscaled(*args))
