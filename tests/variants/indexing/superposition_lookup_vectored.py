Os = np.arange(5)[:, None, None]
Is = np.arange(5)[:, None]
Js = np.arange(5)


def jac(arr, indices):
    return {
        "rows": (indices[None, :, None] * (Os == Js), arr.T),
        "columns": (indices[None, None, :] * (Os == Is), arr),
    }["{{mix}}"]


_unscaled = jac


def jac(*args):  # the variant's scale multiplies every block
    return jax.tree_util.tree_map(lambda block: {{scale}} * (1.0 * block), _unscaled(*args))
