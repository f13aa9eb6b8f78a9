Is = np.arange({{n}})
Os = np.arange({{n}})[:, None]


def jac(vector, index, target):
    return 1.0 * ((Is == Os) & (Os != index)), 1.0 * (Is == index)
