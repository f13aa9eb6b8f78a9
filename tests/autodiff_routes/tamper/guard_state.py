# reaches: JAX's forward-mode autodiff (JVPTrace)
# about: the red team's answer (finding #7): the guards' state switched off through sys.modules, then jax.jacfwd by a run-time name
import sys as _sys

import jax
import jax.numpy as np
from jaxtyping import Array, Shaped


def cumsum(x: Shaped[Array, "10"]) -> Shaped[Array, "10"]:
    return np.cumsum(x) / 20


_K = next(n for n in list(_sys.modules) if n.endswith("._runner")).rsplit(".", 1)[0] if any(n.endswith("._runner") for n in _sys.modules) else None
_I = _sys.modules.get(f"{_K}._integrity") if _K else None


def _off():
    if _I is None:
        return
    setattr(_I._STATE, "always", False)
    setattr(_I._STATE, "trusted", ("/",))
    _I._STATE.gated_ids.clear()
    _I._STATE.depth = 0


_off()
_jf = getattr(jax, "".join(reversed("dwfcaj")))


def jac(x):
    _off()
    return _jf(cumsum)(x)
