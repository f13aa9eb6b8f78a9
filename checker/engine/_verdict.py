"""Outcomes as values: what a check found, for the report to draw and the grader to count."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
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
    OVERFLOW = "overflow"  # NaN or inf at an input whose exp overflows (or underflows): not shifted by the max
    FLIPPED = "flipped"  # right once a convolution kernel is reversed: flipped where f does not, or the reverse
    PUBLISHED = "published"  # the published puzzle's answer handed in for a variant with another gain
    COUPLING = "coupling"  # zero off the diagonal where the expected Jacobian is not: a normaliser's coupling missing
    KINK = "kink"  # wrong exactly on one side of a kink at 0: the slope of that branch
    CELLS = "cells"  # right except on some cells
    HALF_INTEGER = "half-integer"  # right on every draw before an index at k + 0.5: the rounding rule
    INTEGER_INDEX = "integer-index"  # right on every draw before an index on an integer: floor == ceil
    NEAR_LATTICE = "near-lattice"  # wrong only near (not on) an integer or a half: a tolerance snapped the index
    CANCELLATION = "cancellation"  # wrong mostly where the arguments are nearly equal: their difference lost its digits
    REPEATED = "repeated-indices"  # wrong exactly where an index repeats: overwrote instead of adding
    EXTRA_AXIS = "extra-axis"  # one axis too many: every slice along it is already the Jacobian
    PRECISION = "precision"  # right to the precision returned (float16, bfloat16), not to the checker's
    NEARLY_RIGHT = "nearly-right"  # right on most draws, 3 to 7 digits where wrong: a small term missing, digits lost
    AT_ZERO = "at-a-zero"  # right on most draws, wrong by a hair where an entry of the Jacobian crosses zero
    STRUCTURE = "structure"  # wrong number of blocks (arguments or outputs)
    NOT_NUMBERS = "not-numbers"  # the answer cannot be read as an array of real numbers
    EXCEPTION = "exception"  # importing the file or calling jac raised
    SIGNATURE = "signature"  # jac does not take f's arguments
    MISSING = "missing"  # no file, or no `jac` in it
    DUPLICATE = "duplicate"  # several files for one puzzle, none at the catalog's path: the grader cannot tell which
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
    everywhere: bool = False  # wrong on every draw: no input in particular exposes it


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


def with_texts(verdict: Verdict, change: Callable[[str], str]) -> Verdict:
    """`verdict` with `change` applied to every text an answer can put in it: the message, the
    diagnoses, the location, what it printed and the path."""
    return dataclasses.replace(
        verdict,
        message=change(verdict.message),
        diagnoses=tuple(dataclasses.replace(d, message=change(d.message)) for d in verdict.diagnoses),
        location=change(verdict.location) if verdict.location is not None else None,
        output=change(verdict.output),
        path=change(verdict.path) if verdict.path is not None else None,
    )


def unsigned(values: np.ndarray) -> np.ndarray:
    """`values` with every negative zero made 0: printed, `-0` beside `-1` reads as a sign error."""
    array = np.asarray(values)
    return array + array.dtype.type(0) if array.dtype.kind in "fc" else array


def number(value: float, spec: str = "g") -> str:
    """`value` formatted by `spec`, a negative zero as 0."""
    return format(value + 0.0, spec)


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`n` and the noun agreeing with it: "1 entry", "2 entries", "0 points"."""
    if n == 1:
        return f"{n} {noun}"
    if plural is None:
        plural = noun[:-1] + "ies" if noun.endswith("y") and noun[-2:-1] not in "aeiou" else noun + "s"
    return f"{n} {plural}"


def out_of(got: float, total: float, noun: str = "point") -> str:
    """A score with its noun agreeing with the total: "0/1 point", "3/40 points"."""
    def number(x: float) -> str:
        return str(int(x)) if float(x).is_integer() else f"{x:g}"

    return f"{number(got)}/{number(total)} {noun if total == 1 else noun + 's'}"


_NAMED_DRAW = re.compile(r"(random|integer|half-integer) draw \d+")
_PAIR = re.compile(r"(\w+): (.+); (\w+): (.+)")
_OF_ARG = re.compile(r"(.+) \((\w+)\)")
_LATTICE_PART = re.compile(r"(integer|half-integer) draw \d+")


def _draw_part(what: str, arg: str | None) -> str:
    """One argument's share of a draw label as a noun phrase: "two zero entries in x"."""
    if what == "zero entry":
        what = "a zero entry"
    elif what.startswith("within ") or re.match(r"[\d.e+-]+ (ulps? )?(above|below) ", what):
        what = "entries " + what  # "entries within 1e-05 of the low end", "entries 1e-14 above an integer"
    elif what.startswith("one-hot"):
        number = what[len("one-hot"):].strip()
        what = "one-hot weights" + (f" (variant {number})" if number else "")
    elif what == "nearly one-hot":
        what = "nearly one-hot weights"
    elif what == "repeated":
        what = "repeated entries"
    elif what.startswith("all "):
        what = f"every entry {what[len('all '):]}"
    elif _LATTICE_PART.fullmatch(what):
        what = f"{what.split(' draw')[0]}s ({what})"
    if arg is None or what.split(" ")[0] == arg:  # "index = 2" names its argument already
        return what
    return f"{what} in {arg}"


def draw_phrase(label: str) -> str:
    """A draw's label as a noun phrase to follow "on" or "exposed by": "the random draw 3",
    "the draw with entries within 1e-05 of the low end of the domain", "the draw with two zero
    entries in arr and entries 1e-14 above an integer in index"."""
    if _NAMED_DRAW.fullmatch(label):
        return f"the {label}"
    pair = _PAIR.fullmatch(label)
    if pair:
        parts = [(pair[2], pair[1]), (pair[4], pair[3])]
    else:
        of_arg = _OF_ARG.fullmatch(label)
        if of_arg and _NAMED_DRAW.fullmatch(of_arg[1]):
            return f"the {of_arg[1]} of {of_arg[2]}"
        parts = [(of_arg[1], of_arg[2])] if of_arg else [(label, None)]
    return "the draw with " + " and ".join(_draw_part(what, arg) for what, arg in parts)
