"""A draw: one input to `f` and `jac`, a value per argument with a label saying what kind it is.

Apart from the sampler that makes them, so that the stages after it (the oracles, the zero
search the sampler itself consults) can take draws without importing the sampler.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Draw:
    """One input to `f` and `jac`: a value per argument, and what kind of draw it is."""

    label: str
    values: tuple[np.ndarray, ...]


def stacked(batch: tuple[Draw, ...]) -> tuple[np.ndarray, ...]:
    """The draws as one array per argument, the draw index first (for a vmapped oracle)."""
    return tuple(np.stack(column) for column in zip(*(d.values for d in batch)))
