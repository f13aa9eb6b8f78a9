Is = np.arange(5)


def jac(arr: Shaped[Array, "5"], index: Shaped[Array, ""]) -> tuple[Shaped[Array, "5"], Shaped[Array, ""]]:
    lo, hi = np.floor(index), np.ceil(index)
    whole = lo == hi  # an integer index: t = 0, and its derivative is 0 too
    t = np.where(whole, 0.0, index - lo)
    i1, i2 = lo.astype(np.int32), hi.astype(np.int32)
    d_arr = t * (Is == i1) + (1 - t) * (Is == i2)
    d_index = np.where(whole, 0.0, arr[i1] - arr[i2])
    return d_arr, d_index


_unscaled = jac


def jac(*args):  # the variant's scale multiplies every block
    return jax.tree_util.tree_map(lambda block: {{scale}} * (1.0 * block), _unscaled(*args))
