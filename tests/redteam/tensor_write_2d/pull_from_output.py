# expect: fail
# mistake: u - A recovered from f's output as (u - f) / (1 - M), with the exact write M == 1 special-cased
import jax.numpy as np

WITNESS = {
    "arr": [[[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6]], [[0.7, -0.8], [0.9, 0.05], [-0.15, 0.25]],
            [[0.35, -0.45], [0.55, 0.65], [-0.75, 0.85]]],
    "element": [0.2, -0.3],
    "x_index": [1.1102230246251565e-16, 0.9999999999999998, 1.1102230246251565e-16],
    "y_index": [0.0, 0.0, 1.0],
}
I3 = np.arange(3)
C2 = np.arange(2)
SAME = (
    (I3[:, None, None, None, None, None] == I3[None, None, None, :, None, None])
    & (I3[None, :, None, None, None, None] == I3[None, None, None, None, :, None])
    & (C2[None, None, :, None, None, None] == C2)
)


def jac(arr, element, x_index, y_index):
    mask = np.outer(x_index, y_index)[:, :, None]
    out = (1 - mask) * arr + mask * element[None, None, :]
    # u - f = (1 - M)(u - A), so u - A = (u - f) / (1 - M); where M is exactly 1, f = u there.
    safe = np.where(mask == 1, 1.0, 1 - mask)
    pull = np.where(mask == 1, element[None, None, :] - arr, (element[None, None, :] - out) / safe)
    d_arr = SAME * (1 - mask)[..., None, None, None]
    d_el = mask[..., None] * (C2[:, None] == C2)
    d_x = (I3[:, None, None, None] == I3) * (y_index[None, :, None] * pull)[..., None]
    d_y = (I3[None, :, None, None] == I3) * (x_index[:, None, None] * pull)[..., None]
    return d_arr, d_el, d_x, d_y
