A3 = np.arange(3)
Ch = np.arange({{channels}})
SAME_CELL = (A3[:, None, None, None] == A3[None, None, :, None]) & (A3[None, :, None, None] == A3[None, None, None, :])


def jac(x, y):
    same_channel = Ch[:, None] == Ch[None, :]
    d_x = SAME_CELL[:, :, None, :, :, None] * same_channel[None, None, :, None, None, :] * y[:, :, None, None, None, None]
    d_y = SAME_CELL[:, :, None, :, :] * x[:, :, :, None, None]
    return d_x, d_y


_unscaled = jac


def jac(*args):  # the variant's scale multiplies every block
    return jax.tree_util.tree_map(lambda block: {{scale}} * (1.0 * block), _unscaled(*args))
