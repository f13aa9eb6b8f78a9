Is = np.arange(25)
Os = np.arange({{start.out}})[:, None]


def jac(x):
    return 1.0 * (Is == Os + {{start}})
