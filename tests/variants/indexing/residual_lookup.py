Is = np.arange(5)


def jac(arr, index):
    result = (1.0 * (Is == np.{{rounding}}(index)), np.zeros(()))
    residue = (np.zeros(5), np.ones(()))
    return result, residue


_unscaled = jac


def jac(*args):  # the variant's scale multiplies every block
    return jax.tree_util.tree_map(lambda block: {{scale}} * (1.0 * block), _unscaled(*args))
