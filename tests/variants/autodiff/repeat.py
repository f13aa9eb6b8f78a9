def jac(x):
    return np.ones(({{n}}, 1))
