"""A draw: one input to `f` and `jac`, a value per argument with a label saying what kind it is.

Apart from the sampler that makes them, so that the stages after it (the oracles, the zero
search the sampler itself consults) can take draws without importing the sampler.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Draw:
    """One input to `f` and `jac`: a value per argument, and what kind of draw it is.

    `atol` is the least absolute tolerance, relative to each block's largest entry, that the
    draw's blocks are compared with (`_tolerance`): 0, the contract's own, except on a draw whose
    Jacobian is a sum of terms cancelling to a small part of themselves, where every right
    answer's rounding, and the oracles' own, is beyond the contract's 1e-12 of that entry
    (`Arg.cancelling_spreads`).

    `floor` is an absolute tolerance under which any difference passes: 0, except on a draw with
    a whole argument near the bottom of float64's normal range (`_sampling.BOTTOMS`), where a
    product of its entries and a factor below 1 may be a subnormal that one right computation
    keeps and another flushes to 0 (XLA flushes, TensorFlow and a fused multiply-add keep it), so
    that right answers, and the oracles, differ by up to a few subnormals.
    """

    label: str
    values: tuple[np.ndarray, ...]
    atol: float = 0.0
    floor: float = 0.0

    @functools.cached_property
    def subnormal_apart(self) -> bool:
        """Whether two normal float entries, or one and another's negation, lie a subnormal
        distance apart: where XLA flushes their difference (or sum) to 0 op by op, so that a
        fused program and the one the answer spells out may decide a comparison differently.

        Worked out once per draw: every answer checked on it asks.
        """
        parts = [np.asarray(v, np.float64).ravel() for v in self.values if np.asarray(v).dtype.kind == "f"]
        if not parts:
            return False
        entries = np.concatenate(parts)
        entries = entries[np.isfinite(entries) & (np.abs(entries) >= np.finfo(np.float64).tiny)]
        gaps = np.diff(np.unique(np.concatenate([entries, -entries])))
        return bool(np.any((gaps > 0) & (gaps < np.finfo(np.float64).tiny)))


def stacked(batch: tuple[Draw, ...]) -> tuple[np.ndarray, ...]:
    """The draws as one array per argument, the draw index first (for a vmapped oracle)."""
    return tuple(np.stack(column) for column in zip(*(d.values for d in batch)))
