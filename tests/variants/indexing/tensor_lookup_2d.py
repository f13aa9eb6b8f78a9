Rows = np.arange(3)
Chans = np.arange(2)


def jac(
    arr: Shaped[Array, "3 3 2"], x_index: Shaped[Array, "3"], y_index: Shaped[Array, "3"]
) -> tuple[Shaped[Array, "2 3 3 2"], Shaped[Array, "2 3"], Shaped[Array, "2 3"]]:
    masked = np.outer(x_index, y_index)[:, :, None] * arr
    best = np.argmax(masked.reshape(9, 2), axis=0)  # each channel's winning cell
    i, j = best // 3, best % 3  # shape (2,)
    cell = arr[i, j, Chans]  # A[i*, j*, c] for each channel c
    # f_c = x[i*] y[j*] A[i*, j*, c] near the draw.
    at_cell = (Rows[None, :, None] == i[:, None, None]) & (Rows[None, None, :] == j[:, None, None])
    d_arr = (at_cell * (x_index[i] * y_index[j])[:, None, None])[..., None] * (Chans[:, None, None, None] == Chans)
    d_x = (Rows == i[:, None]) * (y_index[j] * cell)[:, None]
    d_y = (Rows == j[:, None]) * (x_index[i] * cell)[:, None]
    return d_arr, d_x, d_y


_unscaled = jac


def jac(*args):  # the variant's scale multiplies every block
    return jax.tree_util.tree_map(lambda block: {{scale}} * (1.0 * block), _unscaled(*args))
