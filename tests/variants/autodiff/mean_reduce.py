Os = np.arange(4)[:, None, None]
Cs = np.arange(4)[None, :, None]
Ds = np.arange(4)[None, None, :]


def jac(x):
    return np.broadcast_to({{form.ans}}, (4, 4, 4))
