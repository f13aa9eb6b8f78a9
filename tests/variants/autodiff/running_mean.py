Is = np.arange(10)
Os = np.arange({{width.out}})[:, None]


def jac(x):
    return ((Is >= Os) & (Is < Os + {{width}})) / {{width}}
