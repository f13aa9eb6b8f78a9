Os = np.arange(16)[:, None, None]
R = np.arange(4)[None, :, None]
C = np.arange(4)[None, None, :]


def jac(x):
    return 1.0 * (Os == {{order.eq}})
