Os = np.arange(5)[:, None, None]
Is = np.arange(5)[:, None]
Js = np.arange(5)


def jac(arr, indices):
    return {
        "rows": (indices[None, :, None] * (Os == Js), arr.T),
        "columns": (indices[None, None, :] * (Os == Is), arr),
    }["{{mix}}"]
