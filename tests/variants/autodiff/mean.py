def jac(x):
    return np.ones((1, {{n}})) / {{n}}
