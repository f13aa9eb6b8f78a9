def jac(x):
    return ({{freq}} * -np.sin({{freq.code}}))[:, None]
