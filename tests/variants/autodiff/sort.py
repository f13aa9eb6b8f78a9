Is = np.arange(10)


def jac(x):
    return 1.0 * (Is == {{order.perm}}[:, None])
