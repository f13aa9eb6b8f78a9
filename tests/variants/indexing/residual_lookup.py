Is = np.arange(5)


def jac(arr, index):
    result = (1.0 * (Is == np.{{rounding}}(index)), np.zeros(()))
    residue = (np.zeros(5), np.ones(()))
    return result, residue
