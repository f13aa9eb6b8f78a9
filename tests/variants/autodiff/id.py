def jac(x):
    return {{scale}} * np.ones((1, 1))
