Is = np.arange(10)
Os = np.arange(10)[:, None]


def jac(x):
    return (Is == Os) * np.where(x > 0, 1.0, {{leak}})
