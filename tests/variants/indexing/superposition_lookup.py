Cs = np.arange(5)


def jac(arr: Shaped[Array, "5"], index: Shaped[Array, ""]) -> tuple[Shaped[Array, "1 5"], Shaped[Array, "1"]]:
    lo, hi = np.floor(index), np.ceil(index)
    whole = lo == hi
    t = np.where(whole, 0.0, index - lo)
    i1, i2 = np.clip(lo, 0, 4).astype(np.int32), np.clip(hi, 0, 4).astype(np.int32)
    weights = t * (Cs == i1) + (1 - t) * (Cs == i2)
    return weights[None, :], np.where(whole, 0.0, arr[i1] - arr[i2])[None]


_unscaled = jac


def jac(*args):  # the variant's scale multiplies every block
    return jax.tree_util.tree_map(lambda block: {{scale}} * (1.0 * block), _unscaled(*args))
