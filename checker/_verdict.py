"""Outcomes as values: what a check found, for the report to draw and the grader to count."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np


class Status(str, Enum):
    """How a puzzle stands. Only a correct Jacobian on every draw is `PASS`."""

    PASS = "pass"
    FAIL = "fail"  # wrong shape or wrong values
    ERROR = "error"  # the file does not import, jac raises, wrong number of arguments or outputs
    TODO = "todo"  # no file, the stub is untouched, or jac raises NotImplementedError


class Kind(str, Enum):
    """What a diagnosis recognised. Tests pin these; the wording lives in `Diagnosis.message`."""

    SHAPE = "shape"  # wrong shape, nothing more specific recognised
    BROADCAST = "broadcast"  # wrong shape, but right once broadcast to the full shape
    GRADIENT = "gradient"  # the shape of the input or output: a gradient, not a Jacobian
    TRANSPOSED = "transposed"  # input axes first instead of output axes first
    SIGN = "sign"  # right up to sign
    FACTOR = "factor"  # right up to a constant factor
    SHIFTED = "shifted"  # right but shifted by one along an axis
    NONFINITE = "nonfinite"  # NaN or inf where the Jacobian is finite
    ZERO_DIVISION = "zero-division"  # NaN or inf at an input with a zero entry
    CELLS = "cells"  # right except on some cells
    HALF_INTEGER = "half-integer"  # right on every draw before an index at k + 0.5: the rounding rule
    INTEGER_INDEX = "integer-index"  # right on every draw before an index on an integer: floor == ceil
    NEAR_LATTICE = "near-lattice"  # wrong only near (not on) an integer or a half: a tolerance snapped the index
    REPEATED = "repeated-indices"  # wrong exactly where an index repeats: overwrote instead of adding
    EXTRA_AXIS = "extra-axis"  # one axis too many: every slice along it is already the Jacobian
    PRECISION = "precision"  # right to the precision returned (float16, bfloat16), not to the checker's
    STRUCTURE = "structure"  # wrong number of blocks (arguments or outputs)
    NOT_NUMBERS = "not-numbers"  # the answer cannot be read as an array of real numbers
    EXCEPTION = "exception"  # importing the file or calling jac raised
    SIGNATURE = "signature"  # jac does not take f's arguments
    MISSING = "missing"  # no file, or no `jac` in it
    UNTOUCHED = "untouched"  # the stub as generated, or NotImplementedError
    TIMEOUT = "timeout"  # jac did not return in time
    FORBIDDEN = "forbidden"  # uses autodiff or the kit's own code, or too large to read: not run
    KIT_BUG = "kit-bug"  # the oracles disagree: our bug, not the learner's


@dataclass(frozen=True)
class Cell:
    """One wrong entry: its index in the output's axes and the input's axes, yours and expected."""

    out_index: tuple[int, ...]
    in_index: tuple[int, ...]
    yours: float
    expected: float


@dataclass(frozen=True)
class Diagnosis:
    """One thing the judge recognised, in the learner's terms."""

    kind: Kind
    message: str


@dataclass(frozen=True)
class Failure:
    """The evidence behind a `fail`: the draw that exposed it and the block that was wrong.

    `expected`, `yours` and `wrong` are the block's arrays (`wrong` a boolean mask, None when the
    shapes differ); `block` names which Jacobian it is (e.g. "d f / d y").
    """

    draw_label: str
    draw: dict[str, np.ndarray]
    block: str
    expected: np.ndarray
    yours: np.ndarray
    wrong: np.ndarray | None
    out_ndim: int
    out_label: str = "f"  # "f", or "f[k]" when f has several outputs
    arg: str = "x"  # the argument this block differentiates by
    cells: tuple[Cell, ...] = ()
    wrong_count: int = 0
    cotangent: bool = False  # the block is a backward pass's result, shaped like `arg`


@dataclass(frozen=True)
class OracleCheck:
    """One oracle the answer was compared with, and whether it agreed (None: not compared)."""

    name: str  # "jax.jacfwd", "TensorFlow 2.21.0 GradientTape.jacobian (live)"
    agrees: bool | None
    note: str = ""  # why it was not compared


@dataclass(frozen=True)
class Verdict:
    """The result of checking one puzzle."""

    puzzle: str
    status: Status
    message: str
    diagnoses: tuple[Diagnosis, ...] = ()
    failure: Failure | None = None
    location: str | None = None  # "file.py:12: <source line>" for an exception
    output: str = ""  # what the learner's code printed, capped
    path: str | None = None
    draws: int = 0
    seed: int = 0
    oracles: tuple[OracleCheck, ...] = ()

    @property
    def passed(self) -> bool:
        return self.status is Status.PASS

    def kinds(self) -> tuple[Kind, ...]:
        """The kinds of every diagnosis, in order."""
        return tuple(d.kind for d in self.diagnoses)
