"""The catalog: what each puzzle is, read from the data files in `checker/_data/` and from packs.

A chapter is a catalog file (a `[chapter]` table and `[[puzzle]]` entries, the format documented
at the top of `checker/_data/autodiff.toml`) with its reference answers beside it. The kit's own
chapters are `_data/<name>.toml`; a **pack** is a folder of an instructor's holding `pack.toml`
in that same format and `solutions/<chapter>/<name>.py`, added with `use_packs` (`--pack DIR`).

Loading the catalog imports neither JAX nor numpy, so `jacpuzzles list`, `show` and `hint` start
fast; a puzzle's `f` is compiled from its source on first use.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import itertools
import json
import math
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from checker.engine._errors import JacpuzzlesError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

_DATA = Path(__file__).parents[1] / "_data"
# Chapters in the order a learner takes them; each is `_data/<name>.toml`.
CHAPTERS = ("autodiff", "indexing", "layers")
# Where a sampler must keep away from, because f has no derivative there.
AVOIDABLE = ("zero", "ties")
# How an argument's random values are drawn: uniform in [low, high], or probability vectors.
SAMPLERS = ("uniform", "simplex")
# Named edge draws an argument can take part in (made in `_sampling`).
GENERIC_EDGES = ("zero entry", "two zero entries", "large magnitudes", "small magnitudes")
EDGES = GENERIC_EDGES + ("integer", "half-integer", "one-hot", "repeated")
# Named checks every draw of a puzzle must pass, for kinks no single argument shows (`_sampling`).
GUARDS = ("unique_max", "asymmetric")
KINDS = ("jac", "vjp")
FLOAT_DTYPES = ("float32", "float64")
# The chapters whose puzzles TensorFlow judges too (`_tf_oracle`): they have its reference functions.
TF_CHAPTERS = ("indexing",)
INT_DTYPES = ("int32", "int64")


class CatalogError(JacpuzzlesError):
    """A catalog entry is malformed (in practice a pack's, the kit's own are tested): not the
    learner's answer; `where` names the entry, `message` what to fix in it. Exit code 2."""

    exit_code = 2

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


# A placeholder in a parameterized puzzle's text: `{{direction}}` (the choice itself) or
# `{{direction.expr}}` (the parameter's `expr` word for that choice).
PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_]\w*)(?:\.([A-Za-z_]\w*))?\s*\}\}")
# What a choice (or a word for it) may be: a TOML string, integer or float.
_SCALARS = (str, int, float)

# A variant, as its parameters' choices in declaration order; () is the canonical puzzle.
Choices = tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class Param:
    """One parameter of a puzzle: its choices (the first is the canonical puzzle's) and, per
    word, one value for each choice (`{{name.word}}` in the puzzle's text)."""

    name: str
    choices: tuple[Any, ...]
    words: tuple[tuple[str, tuple[Any, ...]], ...] = ()

    def value(self, word: str | None, index: int) -> Any:
        """The choice at `index` (`word` None) or that choice's `word`."""
        if word is None:
            return self.choices[index]
        return dict(self.words)[word][index]


@dataclass(frozen=True)
class Arg:
    """One argument of a puzzle's `f`: its shape, dtype and sampling domain."""

    name: str
    shape: tuple[int, ...]
    dtype: str = "float32"
    low: float = -1.0
    high: float = 1.0
    avoid: tuple[str, ...] = ()
    static: int | None = None  # a fixed Python int (a size such as `bandwidth`), never sampled
    sampler: str = "uniform"
    edges: tuple[str, ...] | None = None  # None: the generic edges for a uniform float argument
    cotangent: bool = False  # the upstream gradient `g` of a backward-pass puzzle
    # Scales the argument's random values are also drawn at (entries in [low, high] times each):
    # regions of f that the domain's own draws rarely reach (attention's saturated rows).
    magnitudes: tuple[float, ...] = ()
    # Sizes of a common offset the argument's entries are also drawn around, with a small spread
    # (1e-4 to 1e-3): where a normaliser's one-pass variance E[x^2] - E[x]^2 cancels.
    offsets: tuple[float, ...] = ()
    # Relative spreads its entries are also drawn within, around a common value of at least half
    # the domain's edge: entries `allclose` to one another far from 0, where a shortcut takes
    # them as equal (softmax's uniform weights).
    spreads: tuple[float, ...] = ()
    # The same, where f's Jacobian is then a sum of terms cancelling to the spread of themselves
    # (attention's Q block with v's rows, or k's, this close): drawn with `Draw.atol` raised to
    # `_tolerance.CANCELLING_ATOL`, since no right answer's rounding meets the contract there.
    cancelling_spreads: tuple[float, ...] = ()
    # Absolute ranges its entries are also drawn within, at two levels around a common value of at
    # least half the domain's edge (some entries `range` above the others): nearly equal entries
    # whose differences are just above what the contract sees, where a shortcut that takes
    # entries within a threshold of one another as equal (softmax's weights as uniform) is wrong
    # by more than the contract for any threshold above the smallest range (red team RT33's A3).
    ranges: tuple[float, ...] = ()
    # Another argument whose entries on one axis are also drawn within each of `aligned_spreads`
    # (relative) of one another, while this argument's rows lie along that axis: every row of the
    # bilinear form (this) (other)^T is then `allclose`, while the other's rows are not
    # (attention's scores, where a shortcut takes the weights as uniform: red team RT22).
    aligned_with: str | None = None
    aligned_spreads: tuple[float, ...] = ()
    # Leads of the same bilinear form: this argument's rows all equal along one axis, the other's
    # entries on it one (at random) ahead of the rest, so that every row of (this) (other)^T that
    # sees that entry and another leads by the lead to 1% more (attention's scores, times its
    # 1/sqrt(2): a shortcut that takes a row's normaliser as 1 once its runner-up's weight is below
    # e^-14 passed every seed, red team RT34).
    aligned_leads: tuple[float, ...] = ()
    # Another argument whose row at the leading entry's position is 0 in those draws: where f
    # subtracts a weighted mean of that argument's rows (attention's V_j - f_i), the saturated
    # row's difference is then exact instead of a cancellation of e^-lead of its terms, which
    # no right answer rounds within the contract (the reference answer failed 13 seeds of 160).
    aligned_leads_zero: str | None = None
    # Sizes of this argument's products with `aligned_with`'s rows (attention's scores, times
    # sqrt(2)) it is also drawn at: every product below the size in magnitude, where the weights
    # are uniform to that share, and an answer that takes them as uniform once the scores are
    # "rounding noise" is wrong by about it (red team RT38).
    flat_products: tuple[float, ...] = ()
    # Another argument set, in the draws whose weights are that nearly uniform (`flat_products`,
    # and aligned spreads below 1e-9), so that an entry of the K block and one of the Q block cross
    # zero under uniform weights for a row that sees every position: one entry at its column's
    # mean (V_c - f_i then cancels), another where the values' column is uncorrelated with a
    # column of `aligned_with`. A shortcut taking the weights as uniform there is off by the
    # weights' share of non-uniformity, far beyond the contract at those zeros (red team RT38).
    uniform_zeros: str | None = None
    # Leads its largest entry is also drawn ahead of all the others by: a smooth maximum there is
    # nearly the max, with the runner-up's weight e^-lead still far above the contract, where a
    # shortcut takes it as the max itself (logsumexp's "hard max": red team RT24).
    leads: tuple[float, ...] = ()
    # Leads every line along the last axis is also drawn with at once, each its own entry (at
    # random) ahead of the rest of its line: every row of a batch saturated together. With
    # `row_leads_label`, an integer argument (one entry per line) is set to those entries: the
    # label on each row's top, where cross-entropy's whole Jacobian is as small as the runner-up
    # weights (one-hot weights past a lead of 30, or logits clipped so that exp never overflows,
    # passed on some seeds: red team RT34).
    row_leads: tuple[float, ...] = ()
    row_leads_label: str | None = None
    # The unit of `leads` (and of their span and band): the temperature a softmax divides its
    # input by, so that the leads are gaps of x / T wherever T is.
    lead_unit: float = 1.0
    # Each row (first axis) also drawn all zeros in turn, the others as drawn: a bilinear form's
    # row or column of exact zeros among ordinary ones (attention's scores), where an answer that
    # tells masked entries by their value (`scores == 0`) masks allowed ones (red team RT33).
    zero_rows: bool = False
    # Intervals every entry is also drawn within, all at once: where an entrywise function nears
    # its limit, so that a shortcut taking the limit early (GELU's slope as 1 past 5.2: red team
    # RT25) meets entries in the narrow stretch where it is still wrong.
    intervals: tuple[tuple[float, float], ...] = ()
    # Intervals one entry is also drawn within, the others as drawn: where an entrywise slope is
    # too small for its block's scale when every entry is there (jacfwd's own GELU slope is 6e-6
    # from the true one at -6, so only jacfwd's rounding would pass), but large beside entries of
    # ordinary size, where a shortcut taking it as 0 early (below -6: red team RT25) is wrong.
    one_entry_in: tuple[tuple[float, float], ...] = ()
    # Magnitudes every entry is also drawn at exactly, random signs: where a product of all but one
    # entry is still a normal number only if no entry is smaller than the rest (`prod` just above
    # the underflow of n - 1 of them, where "the products underflow, so zeros" is still wrong:
    # red team RT39).
    edge_magnitudes: tuple[float, ...] = ()
    # Statistics of a normaliser (`UNIT_MOMENTS`) the argument is also drawn with at exactly 1,
    # and 3e-10 either side of it: an input "already normalised" by == or a tolerance, where an
    # answer that skips the division forgets eps (red team RT38).
    unit_moments: tuple[str, ...] = ()

    @property
    def differentiable(self) -> bool:
        """Floating arguments get a Jacobian; integer ones (indices, sizes) do not."""
        return self.dtype in FLOAT_DTYPES and not self.cotangent

    @property
    def edge_names(self) -> tuple[str, ...]:
        """The edge draws this argument takes part in."""
        if self.edges is not None:
            return self.edges
        plain = self.dtype in FLOAT_DTYPES and self.sampler == "uniform" and self.static is None
        return GENERIC_EDGES if plain else ()

    @property
    def axes(self) -> str:
        """The jaxtyping dimension string, e.g. `"4 4"`."""
        return " ".join(str(n) for n in self.shape)


@dataclass(frozen=True)
class Puzzle:
    """One "fill in `jac`" puzzle."""

    name: str
    chapter: str
    title: str
    points: int
    statement: str
    code: str
    outs: tuple[tuple[int, ...], ...]
    args: tuple[Arg, ...]
    hints: tuple[str, ...]
    kind: str = "jac"  # "jac": fill in the Jacobian; "vjp": fill in the backward pass
    function: str = ""  # the function `code` defines, when it is not named after the puzzle
    backward: str = ""  # a custom gradient's source (hidden from the learner): `backward(*args, g)`
    guard: str | None = None
    why: str = ""  # why the reference answer is right (`jacpuzzles solution`), 1-3 sentences
    # Multiples of every decade from 1e-12 to 1e-1 its plain arguments are also drawn at
    # together, every entry the domain's edge times the scale, signs balanced: a shortcut taken
    # when the whole input is small, wrong in a band as narrow as the term it drops allows
    # (`_sampling.TOGETHER_DECADES`).
    level_steps: tuple[float, ...] = ()
    variant: Choices = ()  # the parameters' choices this puzzle was rendered with; () canonical
    # The parameters (`_variants` renders the other variants from them), and why a non-canonical
    # variant has no TensorFlow reference ("" when the reference follows the parameters).
    params: tuple[Param, ...] = field(default=(), compare=False, repr=False)
    no_tf: str = field(default="", compare=False, repr=False)
    source: Any = field(default=None, compare=False, repr=False)  # the raw catalog entry

    @property
    def is_vjp(self) -> bool:
        """A backward-pass puzzle: the answer is `vjp(*args, g)`, not `jac(*args)`."""
        return self.kind == "vjp"

    @property
    def tf_judged(self) -> bool:
        """Whether TensorFlow judges this puzzle too: a non-canonical variant unless the catalog
        says why not (`no_tf`)."""
        return self.chapter in TF_CHAPTERS and not (self.variant and self.no_tf)

    @property
    def answer_name(self) -> str:
        """The function the learner writes: `jac`, or `vjp` for a backward-pass puzzle."""
        return "vjp" if self.is_vjp else "jac"

    @property
    def f_args(self) -> tuple[Arg, ...]:
        """The arguments of `f` (all but a backward-pass puzzle's upstream gradient)."""
        return tuple(a for a in self.args if not a.cotangent)

    @property
    def wrt(self) -> tuple[Arg, ...]:
        """The arguments the Jacobian is taken with respect to, in order."""
        return tuple(a for a in self.args if a.differentiable)

    @property
    def argnums(self) -> int | tuple[int, ...]:
        """What `jax.jacfwd` takes: an int for one floating argument, else a tuple."""
        nums = tuple(i for i, a in enumerate(self.args) if a.differentiable)
        return nums[0] if len(nums) == 1 else nums

    def jac_shapes(self) -> tuple[tuple[int, ...], ...]:
        """Every block's shape, output-major: for each output, for each floating argument,
        the output's axes then the argument's axes (the order of `jax.tree_util.tree_leaves`).
        A backward-pass puzzle's blocks are the cotangents: each argument's own shape."""
        if self.is_vjp:
            return tuple(a.shape for a in self.wrt)
        return tuple(out + a.shape for out in self.outs for a in self.wrt)

    def block_outs(self) -> tuple[tuple[int, ...], ...]:
        """The output axes of each block (none for a cotangent), in block order."""
        if self.is_vjp:
            return tuple(() for _ in self.wrt)
        return tuple(out for out in self.outs for _ in self.wrt)

    def jac_annotation(self) -> str:
        """The return annotation of `jac` (or `vjp`), as the learner's stub spells it."""
        blocks = [f'Shaped[Array, "{" ".join(map(str, s))}"]' for s in self.jac_shapes()]
        per_output = [_tuple_of(blocks[k : k + len(self.wrt)]) for k in range(0, len(blocks), len(self.wrt))]
        return _tuple_of(per_output)

    def jac_signature(self) -> str:
        """The `def jac(...) -> ...:` line of the learner's stub (`def vjp(...)` for a backward pass)."""
        params = ", ".join(f'{a.name}: {_annotation(a)}' for a in self.args)
        return f"def {self.answer_name}({params}) -> {self.jac_annotation()}:"

    def on_dynamic(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """`fn` (taking every argument) as a function of the non-static ones: each static
        argument is passed as its fixed Python int, so jit and vmap never trace a size."""
        if all(a.static is None for a in self.args):
            return fn
        fixed = [a.static for a in self.args]

        def call(*dynamic: Any) -> Any:
            rest = iter(dynamic)
            return fn(*(next(rest) if value is None else value for value in fixed))

        return call

    def dynamic(self, values: tuple[Any, ...]) -> tuple[Any, ...]:
        """The values of the non-static arguments, from a value per argument."""
        return tuple(v for a, v in zip(self.args, values) if a.static is None)

    def dynamic_argnums(self) -> int | tuple[int, ...]:
        """`argnums` counted among the non-static arguments of `f` (what `on_dynamic(f)` takes)."""
        dynamic = [a for a in self.f_args if a.static is None]
        nums = tuple(i for i, a in enumerate(dynamic) if a.differentiable)
        return nums[0] if len(nums) == 1 else nums

    @functools.cached_property
    def f(self) -> Callable[..., Any]:
        """The canonical `f`, compiled from `code` (imports JAX on first use); a `jax.custom_vjp`
        function when the puzzle has a custom gradient."""
        return _compile_f(self)


def _tuple_of(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else f"tuple[{', '.join(parts)}]"


def _annotation(arg: Arg) -> str:
    if arg.static is not None:
        return "int"
    kind = "Int" if arg.dtype in INT_DTYPES else "Shaped"
    return f'{kind}[Array, "{arg.axes}"]'


def _compile_f(puzzle: Puzzle) -> Callable[..., Any]:
    import jax
    import jax.numpy as jnp
    from jaxtyping import Array, Int, Shaped

    namespace: dict[str, Any] = {"jax": jax, "np": jnp, "Array": Array, "Shaped": Shaped, "Int": Int}
    exec(compile(puzzle.code, f"<catalog:{puzzle.name}>", "exec"), namespace)
    name = puzzle.function or puzzle.name
    f = namespace.get(name)
    if not callable(f):
        raise CatalogError(puzzle.name, f"its code does not define a function named {name!r}")
    if not puzzle.backward:
        return f  # type: ignore[no-any-return]
    exec(compile(puzzle.backward, f"<catalog:{puzzle.name}:backward>", "exec"), namespace)
    backward = namespace.get("backward")
    if not callable(backward):
        raise CatalogError(puzzle.name, "its backward code does not define a function named 'backward'")
    custom = jax.custom_vjp(f)
    # The residuals are the inputs themselves: the backward rule sees (*args, g).
    custom.defvjp(lambda *args: (f(*args), args), lambda args, g: tuple(backward(*args, g)))
    return custom


def _arg(where: str, raw: dict[str, Any]) -> Arg:
    try:
        arg = Arg(
            name=raw["name"],
            shape=tuple(int(n) for n in raw["shape"]),
            dtype=raw.get("dtype", "float32"),
            low=float(raw.get("low", -1.0)),
            high=float(raw.get("high", 1.0)),
            avoid=tuple(raw.get("avoid", ())),
            static=int(raw["static"]) if "static" in raw else None,
            sampler=raw.get("sampler", "uniform"),
            edges=tuple(raw["edges"]) if "edges" in raw else None,
            cotangent=bool(raw.get("cotangent", False)),
            magnitudes=tuple(float(m) for m in raw.get("magnitudes", ())),
            offsets=tuple(float(m) for m in raw.get("offsets", ())),
            spreads=tuple(float(m) for m in raw.get("spreads", ())),
            cancelling_spreads=tuple(float(m) for m in raw.get("cancelling_spreads", ())),
            ranges=tuple(float(m) for m in raw.get("ranges", ())),
            aligned_with=str(raw["aligned_with"]) if "aligned_with" in raw else None,
            aligned_spreads=tuple(float(m) for m in raw.get("aligned_spreads", ())),
            aligned_leads=tuple(float(m) for m in raw.get("aligned_leads", ())),
            aligned_leads_zero=str(raw["aligned_leads_zero"]) if "aligned_leads_zero" in raw else None,
            flat_products=tuple(float(m) for m in raw.get("flat_products", ())),
            uniform_zeros=str(raw["uniform_zeros"]) if "uniform_zeros" in raw else None,
            leads=tuple(float(m) for m in raw.get("leads", ())),
            lead_unit=float(raw.get("lead_unit", 1.0)),
            row_leads=tuple(float(m) for m in raw.get("row_leads", ())),
            row_leads_label=str(raw["row_leads_label"]) if "row_leads_label" in raw else None,
            intervals=_intervals(where, raw, "intervals"),
            one_entry_in=_intervals(where, raw, "one_entry_in"),
            zero_rows=raw.get("zero_rows", False),
            unit_moments=tuple(str(m) for m in raw.get("unit_moments", ())),
            edge_magnitudes=tuple(float(m) for m in raw.get("edge_magnitudes", ())),
        )
    except KeyError as missing:
        raise CatalogError(where, f"an argument has no {missing}") from None
    if arg.sampler not in SAMPLERS:
        raise CatalogError(where, f"argument {arg.name}: sampler {arg.sampler!r} is not one of {SAMPLERS}")
    if set(arg.edge_names) - set(EDGES):
        raise CatalogError(
            where, f"argument {arg.name}: unknown edges {sorted(set(arg.edge_names) - set(EDGES))}; known: {EDGES}"
        )
    if arg.static is not None and arg.dtype not in INT_DTYPES:
        raise CatalogError(where, f"argument {arg.name}: a static argument is an integer; dtype {arg.dtype!r}")
    if arg.dtype not in FLOAT_DTYPES + INT_DTYPES:
        raise CatalogError(where, f"argument {arg.name}: dtype {arg.dtype!r} is not one of {FLOAT_DTYPES + INT_DTYPES}")
    unknown = set(arg.avoid) - set(AVOIDABLE)
    if unknown:
        raise CatalogError(where, f"argument {arg.name}: cannot avoid {sorted(unknown)}; known: {AVOIDABLE}")
    if arg.magnitudes and (arg.dtype not in FLOAT_DTYPES or arg.sampler != "uniform"
                           or any(m <= 0 for m in arg.magnitudes)):
        raise CatalogError(where, f"argument {arg.name}: magnitudes {arg.magnitudes} need a uniform float argument and "
                                  "positive scales")
    for declared, least in (("spreads", "above 0"), ("cancelling_spreads", "0 (all equal)")):
        spreads = getattr(arg, declared)
        if spreads and (arg.dtype not in FLOAT_DTYPES or arg.sampler != "uniform" or math.prod(arg.shape) < 2
                        or any(not (0 < m if declared == "spreads" else 0 <= m) or m >= 1e-3 for m in spreads)):
            raise CatalogError(where, f"argument {arg.name}: {declared} {spreads} need a uniform float argument of "
                                      f"two or more entries, each spread from {least} to below 1e-3")
    if arg.ranges and (arg.dtype not in FLOAT_DTYPES or arg.sampler != "uniform" or math.prod(arg.shape) < 2
                       or any(not 0 < m < 1e-3 * (arg.high - arg.low) for m in arg.ranges)):
        raise CatalogError(where, f"argument {arg.name}: ranges {arg.ranges} need a uniform float argument of two or "
                                  "more entries, each range between 0 and 1e-3 of the domain's width")
    if arg.offsets and (arg.dtype not in FLOAT_DTYPES or arg.sampler != "uniform" or math.prod(arg.shape) < 2
                        or any(m <= 0 for m in arg.offsets)):
        raise CatalogError(where, f"argument {arg.name}: offsets {arg.offsets} need a uniform float argument of two or "
                                  "more entries and positive sizes")
    if arg.leads and (arg.dtype not in FLOAT_DTYPES or arg.sampler != "uniform" or math.prod(arg.shape) < 2
                      or any(m <= 0 for m in arg.leads) or not arg.lead_unit > 0):
        raise CatalogError(where, f"argument {arg.name}: leads {arg.leads} need a uniform float argument of two or "
                                  "more entries, positive leads and a positive lead_unit")
    if (arg.row_leads or arg.row_leads_label) and (arg.dtype not in FLOAT_DTYPES or arg.sampler != "uniform"
                                                   or len(arg.shape) < 2 or arg.shape[-1] < 2 or not arg.row_leads
                                                   or any(m <= 0 for m in arg.row_leads)):
        raise CatalogError(where, f"argument {arg.name}: row_leads {arg.row_leads} need a uniform float argument of "
                                  "two axes or more, lines of two entries or more, and positive leads")
    if arg.zero_rows is not False and (arg.zero_rows is not True or arg.dtype not in FLOAT_DTYPES
                                       or arg.sampler != "uniform" or len(arg.shape) < 2):
        raise CatalogError(where, f"argument {arg.name}: zero_rows {arg.zero_rows!r} needs true or false, and true "
                                  "needs a uniform float argument of two axes or more")
    for name in ("intervals", "one_entry_in"):
        pairs = getattr(arg, name)
        if pairs and (arg.dtype not in FLOAT_DTYPES or arg.sampler != "uniform"
                      or any(not lo < hi for lo, hi in pairs)):
            raise CatalogError(where, f"argument {arg.name}: {name} {pairs} need a uniform float argument and "
                                      "pairs [low, high] with low below high")
    if arg.edge_magnitudes and (arg.dtype not in FLOAT_DTYPES or arg.sampler != "uniform"
                                or any(not m > 0 for m in arg.edge_magnitudes)):
        raise CatalogError(where, f"argument {arg.name}: edge_magnitudes {list(arg.edge_magnitudes)} need a uniform "
                                  "float argument and magnitudes above 0")
    strange = [m for m in arg.unit_moments if m not in UNIT_MOMENTS]
    if arg.unit_moments and (strange or arg.dtype not in FLOAT_DTYPES or arg.sampler != "uniform"
                             or math.prod(arg.shape) < 2):
        raise CatalogError(where, f"argument {arg.name}: unit_moments {list(arg.unit_moments)} need a uniform float "
                                  f"argument of two entries or more, each one of {', '.join(UNIT_MOMENTS)}")
    if not arg.low < arg.high:
        raise CatalogError(where, f"argument {arg.name}: low {arg.low} is not below high {arg.high}")
    return arg


# The statistics `Arg.unit_moments` may name: over every entry (the sum of squares: a unit norm), or
# over each column (the first axis).
UNIT_MOMENTS = ("mean square", "sum of squares", "variance", "column variance")


def _intervals(where: str, raw: dict[str, Any], name: str) -> tuple[tuple[float, float], ...]:
    """An argument's `intervals` or `one_entry_in`, each a pair of numbers [low, high]."""
    try:
        return tuple((float(lo), float(hi)) for lo, hi in raw.get(name, ()))
    except (TypeError, ValueError):
        raise CatalogError(where, f"argument {raw.get('name')}: {name} {raw.get(name)!r} are not pairs of "
                                  "numbers [low, high]") from None


def _outs(raw: list[Any]) -> tuple[tuple[int, ...], ...]:
    # `out = [10]` is one output of shape (10,); `out = [[], [3]]` is two outputs.
    if all(isinstance(n, int) for n in raw):
        return (tuple(raw),)
    return tuple(tuple(int(n) for n in shape) for shape in raw)


def _puzzle(chapter: str, raw: dict[str, Any], file: str = "") -> Puzzle:
    """The canonical puzzle of a catalog entry, its parameters checked and attached."""
    where = f"{file or chapter + '.toml'}: {raw.get('name', '<unnamed puzzle>')}"
    params = _params(where, raw.get("params", {}))
    _check_placeholders(where, raw, params)
    first = {p.name: 0 for p in params}
    filled = _fill(raw, {p.name: p for p in params}, first)
    canonical = replace(
        _build(chapter, where, filled), params=params, no_tf=str(raw.get("no_tf", "")).strip(), source=raw
    )
    if canonical.no_tf and not params:
        raise CatalogError(where, "no_tf says why a variant has no TensorFlow reference, but the puzzle has no params")
    # The other variants are built when first asked for (`render`), keeping `list` fast;
    # `_variants.check` builds and runs them all (a test does, for every puzzle).
    return canonical


# The fields a `[[puzzle]]` entry and its `[[puzzle.args]]` may have (autodiff.toml's header).
PUZZLE_FIELDS = ("name", "title", "points", "statement", "code", "out", "args", "hints", "kind", "function", "backward",
                 "guard", "why", "params", "no_tf", "level_steps")
ARG_FIELDS = ("name", "shape", "dtype", "low", "high", "avoid", "static", "sampler", "edges", "cotangent", "magnitudes",
              "offsets", "spreads", "cancelling_spreads", "ranges", "aligned_with", "aligned_spreads", "aligned_leads",
              "aligned_leads_zero", "flat_products", "uniform_zeros", "leads", "lead_unit", "row_leads",
              "row_leads_label",
              "intervals", "one_entry_in", "zero_rows", "unit_moments", "edge_magnitudes")


def _unknown(where: str, raw: dict[str, Any], known: tuple[str, ...], what: str) -> None:
    for key in raw:
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
            hint = f"did you mean {close[0]!r}?" if close else f"the fields are {', '.join(known)}"
            raise CatalogError(where, f"{what}: unknown field {key!r}; {hint}")


def _build(chapter: str, where: str, raw: dict[str, Any], compiled: bool = False) -> Puzzle:
    """The puzzle an entry (with every placeholder filled in) describes; with `compiled`, its
    code must also be valid Python (a variant's, whose choices are spliced into the code)."""
    _unknown(where, raw, PUZZLE_FIELDS, "puzzle")
    for arg in raw.get("args", ()) if isinstance(raw.get("args"), list) else ():
        if isinstance(arg, dict):
            _unknown(where, arg, ARG_FIELDS, f"argument {arg.get('name', '?')}")
    try:
        puzzle = Puzzle(
            name=raw["name"],
            chapter=chapter,
            title=raw["title"],
            points=int(raw["points"]),
            statement=raw["statement"].strip(),
            code=raw["code"].strip() + "\n",
            outs=_outs(raw["out"]),
            args=tuple(_arg(where, a) for a in raw["args"]),
            hints=tuple(raw["hints"]),
            kind=raw.get("kind", "jac"),
            function=raw.get("function", ""),
            backward=raw.get("backward", "").strip() + "\n" if raw.get("backward") else "",
            guard=raw.get("guard"),
            why=str(raw.get("why", "")).strip(),
            level_steps=tuple(float(m) for m in raw.get("level_steps", ())),
        )
    except KeyError as missing:
        raise CatalogError(where, f"missing field {missing}") from None
    except (TypeError, ValueError) as bad:
        raise CatalogError(where, f"a field has the wrong type: {bad}") from None
    _validate(where, puzzle)
    for label, source in (("code", puzzle.code), ("backward", puzzle.backward)) if compiled else ():
        try:
            compile(source, f"<catalog:{puzzle.name}>", "exec")
        except SyntaxError as error:
            raise CatalogError(
                where,
                f"its {label} is not valid Python: {error.msg} on line {error.lineno}: {(error.text or '').strip()!r}",
            ) from None
    return puzzle


def _params(where: str, raw: Any) -> tuple[Param, ...]:
    """The `[puzzle.params.NAME]` tables: `choices`, and any words, each a list as long."""
    if not isinstance(raw, dict):
        raise CatalogError(where, f"params is a table of parameters, not {raw!r}")
    found = []
    for name, table in raw.items():
        if not isinstance(table, dict) or "choices" not in table:
            raise CatalogError(where, f"parameter {name!r} has no choices list: {table!r}")
        choices = table["choices"]
        if not isinstance(choices, list) or len(choices) < 2 or not all(isinstance(c, _SCALARS) for c in choices):
            raise CatalogError(
                where, f"parameter {name!r}: choices must list two or more strings or numbers; found {choices!r}"
            )
        if len(set(map(repr, choices))) != len(choices):
            raise CatalogError(where, f"parameter {name!r}: a choice is listed twice in {choices!r}")
        words = []
        for word, values in table.items():
            if word == "choices":
                continue
            if (
                not isinstance(values, list)
                or len(values) != len(choices)
                or not all(isinstance(v, _SCALARS) for v in values)
            ):
                raise CatalogError(
                    where,
                    f"parameter {name!r}: word {word!r} needs one string or number per choice ({len(choices)}); found "
                    f"{values!r}",
                )
            words.append((word, tuple(values)))
        found.append(Param(name, tuple(choices), tuple(words)))
    return tuple(found)


def _strings(value: Any) -> list[str]:
    """Every string in an entry, params tables aside."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for key, v in value.items() if key != "params" for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _check_placeholders(where: str, raw: dict[str, Any], params: tuple[Param, ...]) -> None:
    """Every placeholder names a parameter (and one of its words); every parameter is used."""
    known = {p.name: p for p in params}
    used = set()
    for text in _strings(raw):
        for match in PLACEHOLDER.finditer(text):
            name, word = match.group(1), match.group(2)
            param = known.get(name)
            if param is None:
                raise CatalogError(
                    where,
                    f"unknown placeholder {match.group(0)}: no parameter {name!r} (parameters: "
                    f"{sorted(known) or 'none'})",
                )
            if word is not None and word not in dict(param.words):
                raise CatalogError(
                    where,
                    f"unknown placeholder {match.group(0)}: parameter {name!r} has no word {word!r} (words: "
                    f"{[w for w, _ in param.words]})",
                )
            used.add(name)
    unused = sorted(set(known) - used)
    if unused:
        raise CatalogError(
            where, f"parameters {unused} appear in no placeholder: every variant would be the same puzzle"
        )


def all_choices(puzzle: Puzzle) -> tuple[Choices, ...]:
    """Every variant of `puzzle` as its choices, canonical (every first choice) first."""
    names = [p.name for p in puzzle.params]
    return tuple(tuple(zip(names, combo)) for combo in itertools.product(*(p.choices for p in puzzle.params)))


def _fill(value: Any, lookup: dict[str, Param], at: dict[str, int]) -> Any:
    """`value` with every placeholder filled in; a string that is one placeholder alone takes
    the value's own type (a number in a shape, `out`, `low`, `high` or `static`)."""
    if isinstance(value, str):
        whole = PLACEHOLDER.fullmatch(value)
        if whole:
            return lookup[whole.group(1)].value(whole.group(2), at[whole.group(1)])
        return PLACEHOLDER.sub(lambda m: str(lookup[m.group(1)].value(m.group(2), at[m.group(1)])), value)
    if isinstance(value, dict):
        return {key: v if key == "params" else _fill(v, lookup, at) for key, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, lookup, at) for v in value]
    return value


def render(puzzle: Puzzle, choices: Choices | dict[str, Any] | None = None) -> Puzzle:
    """The concrete puzzle for one variant of `puzzle` (by its choices, one per parameter; a
    parameter left out takes its canonical choice). None or the canonical choices give the
    canonical puzzle itself. Raises `CatalogError` for an unknown parameter or choice, or when
    the variant does not build."""
    base = _canonical(puzzle)
    wanted = dict(choices or ())
    lookup = {p.name: p for p in base.params}
    unknown = sorted(set(wanted) - set(lookup))
    if unknown:
        raise CatalogError(base.name, f"no parameters {unknown}; its parameters: {sorted(lookup) or 'none'}")
    at = {}
    for param in base.params:
        value = wanted.get(param.name, param.choices[0])
        matches = [i for i, c in enumerate(param.choices) if c == value and type(c) is type(value)]
        matches = matches or [
            i for i, c in enumerate(param.choices) if str(c) == str(value)
        ]  # "25" from a command line
        if not matches:
            raise CatalogError(
                base.name, f"parameter {param.name!r} has no choice {value!r}; choices: {list(param.choices)}"
            )
        at[param.name] = matches[0]
    if all(i == 0 for i in at.values()):
        return base
    return _rendered(base, tuple(at.items()))  # in the parameters' order


def _canonical(puzzle: Puzzle) -> Puzzle:
    if not puzzle.variant:
        return puzzle
    found = get(puzzle.name)
    if found is None or found.source is not puzzle.source:  # a puzzle from outside the catalog
        return _puzzle(puzzle.chapter, puzzle.source)
    return found


_RENDERED: dict[tuple[int, tuple[tuple[str, int], ...]], Puzzle] = {}


def _rendered(base: Puzzle, at: tuple[tuple[str, int], ...]) -> Puzzle:
    # Kept, so a variant's compiled `f` is compiled once per process.
    key = (id(base.source), at)
    if key not in _RENDERED:
        lookup = {p.name: p for p in base.params}
        choices = tuple((name, lookup[name].choices[i]) for name, i in at)
        where = f"{base.chapter}.toml: {base.name} (variant {', '.join(f'{n}={v!r}' for n, v in choices)})"
        built = _build(base.chapter, where, _fill(base.source, lookup, dict(at)), compiled=True)
        if built.name != base.name or built.kind != base.kind or built.function != base.function:
            raise CatalogError(where, "a parameter may not change the puzzle's name, kind or function")
        _RENDERED[key] = replace(built, variant=choices, params=base.params, no_tf=base.no_tf, source=base.source)
    return _RENDERED[key]


def _validate(where: str, puzzle: Puzzle) -> None:
    if puzzle.kind not in KINDS:
        raise CatalogError(where, f"kind {puzzle.kind!r} is not one of {KINDS}")
    steps = list(puzzle.level_steps)
    if steps and (steps != sorted(set(steps)) or steps[0] < 1 or steps[-1] >= 10):
        raise CatalogError(where, f"level_steps {steps} must rise from 1 and stay below 10 (multiples of a decade)")
    for arg in puzzle.args:
        if (arg.aligned_with is not None or arg.aligned_spreads or arg.aligned_leads or arg.aligned_leads_zero
                or arg.flat_products or arg.uniform_zeros):
            _validate_aligned(where, puzzle, arg)
        label = next((a for a in puzzle.args if a.name == arg.row_leads_label), None)
        if arg.row_leads_label is not None and (label is None or label.dtype not in INT_DTYPES
                                                or label.shape != arg.shape[:-1]):
            raise CatalogError(where, f"argument {arg.name}: row_leads_label names an integer argument of shape "
                                      f"{arg.shape[:-1]} (one entry per line), not {arg.row_leads_label!r}")
    if puzzle.guard is not None and puzzle.guard not in GUARDS:
        raise CatalogError(where, f"guard {puzzle.guard!r} is not one of {GUARDS}")
    cotangents = [a for a in puzzle.args if a.cotangent]
    if puzzle.is_vjp:
        if len(cotangents) != 1 or not puzzle.args[-1].cotangent or len(puzzle.outs) != 1:
            raise CatalogError(
                where, "a vjp puzzle has one output and its last argument is the upstream gradient (cotangent = true)"
            )
        if cotangents[0].shape != puzzle.outs[0]:
            raise CatalogError(
                where, f"the upstream gradient has shape {cotangents[0].shape}, f's output {puzzle.outs[0]}"
            )
    elif cotangents:
        raise CatalogError(where, "only a vjp puzzle has an upstream-gradient argument")
    if not puzzle.wrt:
        raise CatalogError(where, "no floating argument: nothing to differentiate by")


def _validate_aligned(where: str, puzzle: Puzzle, arg: Arg) -> None:
    other = next((a for a in puzzle.args if a.name == arg.aligned_with), None)
    if (other is None or other is arg or not (arg.aligned_spreads or arg.aligned_leads or arg.flat_products)
            or any(not 0 < m < 1e-3 for m in arg.aligned_spreads) or any(m <= 0 for m in arg.aligned_leads)):
        raise CatalogError(where, f"argument {arg.name}: aligned_with names another argument of the puzzle "
                                  f"({arg.aligned_with!r}), with aligned_spreads {arg.aligned_spreads} between 0 and "
                                  f"1e-3 or aligned_leads {arg.aligned_leads} above 0, one or more")
    if arg.aligned_leads_zero is not None:
        zeroed = next((a for a in puzzle.args if a.name == arg.aligned_leads_zero), None)
        if (zeroed is None or zeroed in (arg, other) or not arg.aligned_leads or zeroed.dtype not in FLOAT_DTYPES
                or not zeroed.shape or zeroed.shape[0] != other.shape[0]):
            raise CatalogError(where, f"argument {arg.name}: aligned_leads_zero names a third float argument "
                                      f"({arg.aligned_leads_zero!r}) with as many rows as {other.name}, beside "
                                      "aligned_leads")
    if any(not 0 < m < 1 for m in arg.flat_products):
        raise CatalogError(where, f"argument {arg.name}: flat_products {list(arg.flat_products)} need sizes "
                                  "between 0 and 1")
    if arg.uniform_zeros is not None:
        held = next((a for a in puzzle.args if a.name == arg.uniform_zeros), None)
        if (held is None or held in (arg, other) or held.dtype not in FLOAT_DTYPES or len(held.shape) != 2
                or held.shape[0] != other.shape[0] or held.shape[0] < 2):
            raise CatalogError(where, f"argument {arg.name}: uniform_zeros names a third float matrix "
                                      f"({arg.uniform_zeros!r}) with as many rows as {other.name}, two or more")
    for a in (arg, other):
        if a.dtype not in FLOAT_DTYPES or a.sampler != "uniform" or len(a.shape) != 2:
            raise CatalogError(where, f"argument {a.name}: aligned_with needs two uniform float matrices")
    if arg.shape[1] != other.shape[1]:
        raise CatalogError(where, f"arguments {arg.name} and {other.name}: aligned_with needs rows of one length, "
                                  f"not {arg.shape[1]} and {other.shape[1]}")


@dataclass(frozen=True)
class Chapter:
    """A group of puzzles, taken in order."""

    name: str
    title: str
    summary: str
    puzzles: tuple[Puzzle, ...]
    pack: Path | None = None  # the pack's folder; None for the kit's own chapters


PACK_FILE = "pack.toml"
_PACKS: list[tuple[Path, str]] = []  # the packs in use: (folder, its catalog's text), in order


class PackError(JacpuzzlesError):
    """A pack folder that cannot be used: the message says what was expected, what was found and
    what to do. Exit code 2."""

    exit_code = 2


def use_packs(folders: Iterable[str | Path] = (), texts: Iterable[tuple[str | Path, str]] = ()) -> None:
    """Add the packs in `folders` (each holding `pack.toml`) after the kit's own chapters, in
    place of those added before; `texts` gives `(folder, catalog text)` pairs instead, where the
    folder is not to be read (a grading worker). Raises `PackError` or `CatalogError`."""
    found: list[tuple[Path, str]] = []
    for folder in folders:
        root = Path(folder).expanduser()
        file = root / PACK_FILE
        if not root.is_dir():
            raise PackError(
                f"pack {folder}: no such folder; give the folder that holds {PACK_FILE} (`jacpuzzles pack new DIR` "
                "makes one)"
            )
        try:
            text = file.read_bytes().decode("utf-8")
        except FileNotFoundError:
            raise PackError(
                f"pack {folder}: expected a file {PACK_FILE} in it, found none; "
                f"a pack is a folder with {PACK_FILE} and solutions/ (`jacpuzzles pack new DIR` makes one)"
            ) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise PackError(f"pack {folder}: cannot read {PACK_FILE} as UTF-8 text ({exc}); save it as UTF-8") from None
        found.append((root.resolve(), text))
    found += [(Path(folder), text) for folder, text in texts]
    _PACKS[:] = found
    chapters.cache_clear()
    _RENDERED.clear()  # keyed by the ids of the dropped catalog's tables, which may be reused
    chapters()  # every mistake in a pack is found now, not at the first puzzle looked up


def packs() -> list[tuple[Path, str]]:
    """The packs in use: `(folder, catalog text)`, in order."""
    return list(_PACKS)


def _chapter(raw: dict[str, Any], file: str, pack: Path | None) -> Chapter:
    """A chapter from a catalog file's contents."""
    head = raw.get("chapter")
    if not isinstance(head, dict) or not all(isinstance(head.get(k), str) for k in ("name", "title", "summary")):
        raise CatalogError(file, "expected a [chapter] table with name, title and summary (strings)")
    name = head["name"]
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
        raise CatalogError(
            file, f"chapter name {name!r}: expected lower-case letters, digits and _ (it names the stubs' folder)"
        )
    entries = raw.get("puzzle")
    if not isinstance(entries, list) or not entries:
        raise CatalogError(file, "expected one [[puzzle]] entry or more, found none")
    puzzles = tuple(_puzzle(name, p, file) for p in entries)
    return Chapter(name, head["title"], head["summary"].strip(), puzzles, pack)


@functools.cache
def chapters() -> tuple[Chapter, ...]:
    """Every chapter, in order, each with its puzzles in order: the kit's, then the packs'."""
    result = []
    for name in CHAPTERS:
        result.append(_chapter(_kit_raw(name), f"{name}.toml", None))
    for folder, text in _PACKS:
        file = str(folder / PACK_FILE)
        try:
            raw = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise CatalogError(file, f"not valid TOML: {exc}") from None
        result.append(_chapter(raw, file, folder))
    seen: dict[str, Chapter] = {}
    named: dict[str, Chapter] = {}
    for ch in result:
        if ch.name in named:
            raise CatalogError(str(ch.pack / PACK_FILE) if ch.pack else f"{ch.name}.toml",
                               f"chapter name {ch.name!r} is taken by {_origin(named[ch.name])}; rename the chapter")
        named[ch.name] = ch
        for p in ch.puzzles:
            if p.name in seen:
                raise CatalogError(
                    f"{ch.name}.toml" if ch.pack is None else str(ch.pack / PACK_FILE),
                    f"puzzle name {p.name!r} is used twice (also in {_origin(seen[p.name])}); rename one",
                )
            seen[p.name] = ch
    return tuple(result)


# Each of the kit's catalogs is also kept parsed, as JSON beside it (`<name>.toml.json`, written
# by `jacpuzzles dev generate`, checked by `dev check`): reading it is a fiftieth of parsing the
# TOML, which cost every check about 40 ms. It is used only when it was made from the TOML's
# exact bytes (their digest is in it); otherwise the TOML is parsed.
def _kit_raw(name: str) -> dict[str, Any]:
    """Chapter `name`'s catalog, parsed."""
    text = (_DATA / f"{name}.toml").read_bytes()
    try:
        mirror = json.loads((_DATA / f"{name}.toml.json").read_text(encoding="utf-8"))
        if mirror["sha256"] == hashlib.sha256(text).hexdigest():
            return mirror["catalog"]  # type: ignore[no-any-return]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return dict(tomllib.loads(text.decode("utf-8")))


def mirror_text(name: str) -> str:
    """The parsed mirror of the kit's catalog `name` (`_kit_raw`), as `dev generate` writes it."""
    text = (_DATA / f"{name}.toml").read_bytes()
    catalog = tomllib.loads(text.decode("utf-8"))
    return json.dumps({"sha256": hashlib.sha256(text).hexdigest(), "catalog": catalog}, indent=0) + "\n"


def _origin(chapter: Chapter) -> str:
    return f"the kit's {chapter.name} chapter" if chapter.pack is None else f"the pack {chapter.pack}"


def catalog_bytes(chapter: str) -> bytes:
    """The catalog file `chapter` comes from, as bytes: `_data/<name>.toml`, or a pack's `pack.toml`."""
    for folder, text in _PACKS:
        if any(ch.name == chapter and ch.pack == folder for ch in chapters()):
            return text.encode("utf-8")
    return (_DATA / f"{chapter}.toml").read_bytes()


def pack_of(puzzle: Puzzle) -> Path | None:
    """The folder of the pack `puzzle` comes from; None for the kit's own puzzles."""
    return next((ch.pack for ch in chapters() if ch.name == puzzle.chapter), None)


def puzzles() -> tuple[Puzzle, ...]:
    """Every puzzle, in catalog order."""
    return tuple(p for ch in chapters() for p in ch.puzzles)


def get(name: str) -> Puzzle | None:
    """The puzzle called `name`, or None."""
    return next((p for p in puzzles() if p.name == name), None)


def closest(name: str, n: int = 3) -> list[str]:
    """Puzzle names that look like `name`, best first (for "did you mean")."""
    return difflib.get_close_matches(name, [p.name for p in puzzles()], n=n, cutoff=0.5)


class UnknownPuzzle(JacpuzzlesError, LookupError):
    """A puzzle name that is not in the catalog; carries the closest names, and the message
    suggests them and `jacpuzzles list`. Also a `LookupError`, so callers catching that still catch it. Exit code 2."""

    exit_code = 2

    def __init__(self, name: str) -> None:
        self.name = name
        self.suggestions = closest(name)
        hint = f"; did you mean {' or '.join(self.suggestions)}?" if self.suggestions else ""
        super().__init__(f"no puzzle named {name!r}{hint} (`jacpuzzles list` shows them all)")


def puzzle_named(name: str) -> Puzzle:
    """The catalog entry for `name`, or `UnknownPuzzle`."""
    found = get(name)
    if found is None:
        raise UnknownPuzzle(name)
    return found
