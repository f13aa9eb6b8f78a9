Is = np.arange({{n}})
Os = np.arange({{n}})[:, None]


def jac(x):
    return np.prod(np.where(Is == Os, 1, x), axis=1)[None, :]
