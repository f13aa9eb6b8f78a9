"""The numeric ground rules every check runs under: float64, with JAX's settings pinned.

Answers and oracles both compute in float64, so a right answer's rounding stays far inside the
tolerance (float32 lost those digits), and a verdict never depends on rounding alone. The settings that
change what JAX computes are pinned while the kit works and restored afterwards, so an answer
that flips one (`jax.config.update("jax_enable_x64", False)` at import) changes neither the
expected Jacobians nor later verdicts, and a notebook keeps its own settings.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
from collections.abc import Iterator
from typing import Any

from checker.engine._settings import ANSWER_COMPILE, FAST_COMPILE, LOOP_EMITTERS

# The dtype every floating draw is made in, and the expected Jacobians computed in.
PRECISION = "float64"

# The JAX settings that change computed values, and the values the kit computes under.
PINNED: dict[str, Any] = {
    "jax_enable_x64": True,
    "jax_default_matmul_precision": "highest",
    "jax_numpy_dtype_promotion": "standard",
    "jax_numpy_rank_promotion": "allow",
    "jax_disable_jit": False,
    "jax_debug_nans": False,
    "jax_debug_infs": False,
}


@functools.lru_cache(maxsize=1)
def settings_digest() -> str:
    """What the expected Jacobians depend on besides the catalog and the draws: the pinned
    settings and the versions of everything that computes them."""
    import importlib.metadata

    import jax
    import numpy as np

    jaxlib = importlib.metadata.version("jaxlib")
    text = repr((PRECISION, sorted(PINNED.items()), jax.__version__, jaxlib, np.__version__))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def compile_options(answers: bool) -> dict[str, Any]:
    """XLA's options for answers, or (`answers=False`) for the kit's own programs: with
    `LOOP_EMITTERS` when this jaxlib knows them."""
    base = ANSWER_COMPILE if answers else FAST_COMPILE
    return {**base, **LOOP_EMITTERS} if _knows_loop_emitters() else dict(base)


@functools.lru_cache(maxsize=1)
def _knows_loop_emitters() -> bool:
    """Whether this jaxlib's XLA takes `LOOP_EMITTERS` (an unknown option fails every compilation,
    and a newer XLA may drop it), tried once per process on a program of one addition."""
    import jax
    import numpy as np

    try:
        jax.jit(lambda x: x + 1, compiler_options={**FAST_COMPILE, **LOOP_EMITTERS}).lower(np.float64(0)).compile()
    except Exception:  # noqa: BLE001 - XlaRuntimeError ("No such compile option"), named differently across jaxlibs
        return False
    return True


@contextlib.contextmanager
def pinned() -> Iterator[None]:
    """Compute under the kit's settings; whatever was set before (by a notebook, or by an answer
    in the meantime) is put back on the way out."""
    import jax
    import numpy as np

    config: Any = jax.config  # untyped upstream
    before = {name: config.values[name] for name in PINNED}
    errors = np.geterr()
    repin()
    try:
        yield
    finally:
        for name, value in before.items():
            if config.values[name] != value:
                config.update(name, value)
        np.seterr(**errors)


def repin() -> None:
    """Set the pinned values again (after learner code ran, which may have changed them)."""
    import jax

    config: Any = jax.config
    for name, value in PINNED.items():
        if config.values[name] != value:
            config.update(name, value)
