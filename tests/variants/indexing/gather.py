Rs = np.arange({{vocab}})[:, None]
Cs = np.arange({{width}})[:, None, None]
Ds = np.arange({{width}})


def jac(embeddings, idx):
    return 1.0 * ((idx[:, :, None, None, None] == Rs) & (Cs == Ds))
