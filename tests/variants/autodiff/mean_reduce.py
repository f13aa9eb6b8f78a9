Os = np.arange(4)[:, None, None]
Cs = np.arange(4)[None, :, None]
Ds = np.arange(4)[None, None, :]


def jac(x):
    return np.broadcast_to({{form.ans}}, (4, 4, 4))


_unscaled = jac


def jac(*args):  # the variant's scale multiplies every block
    return jax.tree_util.tree_map(lambda block: {{scale}} * (1.0 * block), _unscaled(*args))
