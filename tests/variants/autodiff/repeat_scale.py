Os = np.arange(10)[:, None]


def jac(x):
    return {{order.os}} / {{div}}
