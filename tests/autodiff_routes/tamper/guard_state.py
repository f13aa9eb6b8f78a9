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
    setattr(_I, "_ALWAYS", False)
    setattr(_I, "_TRUSTED", ("/",))
    _I._GATED_IDS.clear()
    _I._DEPTH[0] = 0


_off()
_jf = getattr(jax, "".join(reversed("dwfcaj")))


def jac(x):
    _off()
    return _jf(cumsum)(x)
