def jac(index, bandwidth):
    lo, hi = np.floor(index), np.ceil(index)
    i1 = np.clip(lo, 0, {{bandwidth.last}}).astype(np.int32)
    i2 = np.clip(hi, 0, {{bandwidth.last}}).astype(np.int32)
    Cs = np.arange({{bandwidth}})
    return np.where(lo == hi, 0.0, 1.0 * (Cs == i2) - (Cs == i1))


_unscaled = jac


def jac(*args):  # the variant's scale multiplies every block
    return jax.tree_util.tree_map(lambda block: {{scale}} * (1.0 * block), _unscaled(*args))
