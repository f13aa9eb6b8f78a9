# expect: fail cells
# Scales x to [-1, 1] first, "for stability", then argsorts: the division rounds two
# neighbours 1 ulp apart to one number, and the larger, first in index order, comes first
# (red team, round 12). WITNESS: x_2 one ulp above x_7, near -0.0554.
import jax.numpy as np
import numpy as onp

_LOW = -0.05539932649997703
WITNESS = (onp.array([-0.6455465190506824, -0.22386653643096155, onp.nextafter(_LOW, 1.0), 0.4517617275515535,
                      -0.8244642264810265, -0.20981658328406483, 0.7470452622414643, _LOW, 0.8252438672817712,
                      0.5318342354777448]),)


def jac(x):
    z = x / np.max(np.abs(x))
    return 1.0 * (np.arange(10)[None, :] == np.argsort(z)[:, None])
