As = np.arange(3)[:, None, None, None]
Bs = np.arange(3)[None, :, None, None]
Cs = np.arange(3)[None, None, :, None]
Ds = np.arange(3)


def jac(
    arr: Shaped[Array, "3 3"], index: Int[Array, ""], element: Shaped[Array, "3"]
) -> tuple[Shaped[Array, "3 3 3 3"], Shaped[Array, "3 3 3"]]:
    d_arr = (As == Cs) & (Bs == Ds) & (As != index)
    d_element = (As[..., 0] == index) & (Bs[..., 0] == Ds)
    return 1.0 * d_arr, 1.0 * d_element


_unscaled = jac


def jac(*args):  # the variant's scale multiplies every block
    return jax.tree_util.tree_map(lambda block: {{scale}} * (1.0 * block), _unscaled(*args))
