Cs = np.arange(5)
Ks = np.arange(5)[None, :]


def jac(arr: Shaped[Array, "5"], indices: Shaped[Array, "5"]) -> tuple[Shaped[Array, "5 1 5"], Shaped[Array, "5 1 5"]]:
    lo, hi = np.floor(indices), np.ceil(indices)
    whole = (lo == hi)[:, None]
    t = np.where(whole, 0.0, (indices - lo)[:, None])
    i1 = np.clip(lo, 0, 4).astype(np.int32)[:, None]
    i2 = np.clip(hi, 0, 4).astype(np.int32)[:, None]
    # Row s of W: the notebook's (swapped) weights for indices[s]; row s of dW: their derivative.
    W = t * (Cs == i1) + (1 - t) * (Cs == i2)
    dW = np.where(whole, 0.0, 1.0 * (Cs == i1) - (Cs == i2))
    # f_c0 = arr_c * sum_s W_sc.
    d_arr = np.sum(W, axis=0)[:, None] * (Cs[:, None] == Ks)
    d_indices = arr[:, None] * dW.T
    return d_arr[:, None, :], d_indices[:, None, :]


_unscaled = jac


def jac(*args):  # the variant's scale multiplies every block
    return jax.tree_util.tree_map(lambda block: {{scale}} * (1.0 * block), _unscaled(*args))
