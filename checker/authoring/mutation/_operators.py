"""The mutation operators: each a function registered under its name, which finds its sites in a
reference answer and says how to rewrite each.

`REGISTRY` holds them in the order mutants are made; `OPERATORS` is their names. An operator
either rewrites one node at a time (`Operator.sites`: the nodes it applies to, with a rewrite for
each) or replaces the whole answer (`Operator.whole`). The `precision` operators make the
mistakes that are right to about 1e-9 and wrong only at a zero of the Jacobian or a near-tie (the
prover's witness draws show them, `_prover`).
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import functools
import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from checker.authoring.mutation._probe import (
    Probe,
    call,
    enclosing_function,
    in_annotation,
    numbered,
    parents_of,
)
from checker.engine._catalog import Arg, Puzzle

# A rewrite of one node: gets a copy of it, returns what replaces it.
Rewrite = Callable[[ast.AST], ast.AST]
# What a site finder yields: the node to rewrite (usually the one visited) and how.
Site = tuple[ast.AST, Rewrite]
# A whole-answer operator: (description, answer source) per site.
Whole = Callable[[Puzzle, "ast.FunctionDef | None"], list[tuple[str, str]]]

FD_STEPS = (1e-3, 1e-4)
ROUNDING_FUNCS = ("floor", "ceil", "round", "rint", "trunc")
PRECISION_DIGITS = (8, 9, 10)  # significant digits a constant is rounded to (issue 22)
TIE_TOLERANCE = 1e-9  # the tolerance of a learner's tie-breaking comparison


@dataclasses.dataclass(frozen=True)
class Operator:
    name: str
    what: str  # one line, for the docs and the listing
    sites: Callable[[Context, ast.AST], Iterator[Site]] | None = None
    whole: Whole | None = None
    prelude: str = ""  # helper code put before the answer (a function the rewrite calls)
    precision: bool = False  # wrong only by ~1e-9, or at near-ties: shown by the witness draws


REGISTRY: dict[str, Operator] = {}


def operator(name: str, what: str, prelude: str = "",
             precision: bool = False) -> Callable[[Callable[[Context, ast.AST], Iterator[Site]]],
                                                  Callable[[Context, ast.AST], Iterator[Site]]]:
    """Register a node operator under `name`."""

    def register(fn: Callable[[Context, ast.AST], Iterator[Site]]) -> Callable[[Context, ast.AST], Iterator[Site]]:
        REGISTRY[name] = Operator(name, what, sites=fn, prelude=prelude, precision=precision)
        return fn

    return register


def whole_answer(name: str, what: str) -> Callable[[Whole], Whole]:
    """Register an operator that replaces the whole answer under `name`."""

    def register(fn: Whole) -> Whole:
        REGISTRY[name] = Operator(name, what, whole=fn)
        return fn

    return register


# ---------------------------------------------------------------------------------------------
# what an operator knows about the answer


@dataclasses.dataclass
class Context:
    """The reference answer's tree, its probes, and what the operators ask of a node."""

    puzzle: Puzzle
    tree: ast.Module
    probes: dict[int, Probe]

    def __post_init__(self) -> None:
        self.nodes = numbered(self.tree)
        self.parents = parents_of(self.tree)
        self.index = {id(n): k for k, n in enumerate(self.nodes)}
        functions = [n for n in self.tree.body if isinstance(n, ast.FunctionDef)]
        self.answer_fn = next((f for f in functions if f.name == self.puzzle.answer_name), None)
        self.tainted = tainted_names(self.answer_fn) if self.answer_fn is not None else set()

    def probe(self, node: ast.AST) -> Probe | None:
        return self.probes.get(self.index[id(node)])

    def floating(self, node: ast.AST) -> bool:
        p = self.probe(node)
        return p is not None and p.kind == "f"

    def integral(self, node: ast.AST) -> bool:
        p = self.probe(node)
        return p is not None and p.kind in "iu"

    def in_answer(self, node: ast.AST) -> bool:
        fn = enclosing_function(node, self.parents)
        return fn is not None and fn is self.answer_fn


def sites(ctx: Context, names: Sequence[str]) -> dict[str, list[tuple[int, Rewrite, str]]]:
    """Per node operator of `names`: its sites as (walk index, rewrite, description), in walk order."""
    found: dict[str, list[tuple[int, Rewrite, str]]] = {}
    for name in names:
        op = REGISTRY[name]
        if op.sites is None:
            continue
        found[name] = []
        for node in ctx.nodes:
            if in_annotation(node, ctx.parents):
                continue
            for target, make in op.sites(ctx, node):
                before = ast.unparse(target)
                try:
                    after = ast.unparse(make(copy.deepcopy(target)))
                except Exception:  # noqa: BLE001 - an operator that cannot rebuild this node skips it
                    continue
                line = getattr(target, "lineno", "?")
                found[name].append((ctx.index[id(target)], make, f"line {line}: {before}  ->  {after}"))
        found[name].sort(key=lambda site: site[0])  # stable: sites of one node keep their order
    return found


# ---------------------------------------------------------------------------------------------
# helpers


def params(fn: ast.FunctionDef) -> list[str]:
    """The names of `fn`'s positional parameters."""
    return [a.arg for a in fn.args.args]


def tainted_names(fn: ast.FunctionDef) -> set[str]:
    """Names in `fn` whose value depends on its parameters (a simple forward pass, to a fixpoint)."""
    tainted = set(params(fn))
    changed = True
    while changed:
        changed = False
        for node in ast.walk(fn):
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and node.value is not None:
                if any(isinstance(n, ast.Name) and n.id in tainted for n in ast.walk(node.value)):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    for target in targets:
                        for n in ast.walk(target):
                            if isinstance(n, ast.Name) and n.id not in tainted:
                                tainted.add(n.id)
                                changed = True
    return tainted


def _depends(node: ast.AST, tainted: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in tainted for n in ast.walk(node))


def _is_np_call(node: ast.AST, names: Sequence[str]) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id in ("np", "jnp")
        and node.func.attr in names
    )


def _int_const(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int


def _round_sig(value: float, digits: int) -> float:
    return float(f"{value:.{digits - 1}e}")


def _constant_node(value: float, node: ast.AST) -> ast.AST:
    return ast.Constant(value)


def _times_constant(value: float, node: ast.AST) -> ast.AST:
    assert isinstance(node, ast.BinOp)
    return ast.BinOp(node.left, ast.Mult(), ast.Constant(value))


def _f16(node: ast.AST) -> ast.AST:
    return call("np.asarray", node, dtype=ast.Attribute(ast.Name("np", ast.Load()), "float16", ast.Load()))  # type: ignore[arg-type]


def _f32(node: ast.expr) -> ast.expr:
    return ast.Call(ast.Attribute(call("np.asarray", node), "astype", ast.Load()),
                    [ast.Attribute(ast.Name("np", ast.Load()), "float32", ast.Load())], [])


def _shift(node: ast.expr, delta: float) -> ast.expr:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return ast.Constant(node.value + delta)
    return ast.BinOp(node, ast.Add() if delta > 0 else ast.Sub(), ast.Constant(abs(delta)))


_FLIP = {ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Lt: ast.LtE, ast.LtE: ast.Lt}
_ORDER = (ast.Gt, ast.GtE, ast.Lt, ast.LtE)


def _float_order(ctx: Context, node: ast.AST) -> bool:
    """A single order comparison (`a > b`) with a floating operand."""
    return (
        isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], _ORDER)
        and (ctx.floating(node.left) or ctx.floating(node.comparators[0]))
    )


def _float_eq(ctx: Context, node: ast.AST) -> bool:
    """A single `a == b` with a floating operand."""
    return (
        isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq)
        and (ctx.floating(node.left) or ctx.floating(node.comparators[0]))
    )


# ---------------------------------------------------------------------------------------------
# the operators, in the order mutants are made


def _threshold(delta: float) -> Callable[[Context, ast.AST], Iterator[Site]]:
    def find(ctx: Context, node: ast.AST) -> Iterator[Site]:
        if not _float_order(ctx, node):
            return

        def shifted(n: ast.AST) -> ast.AST:
            assert isinstance(n, ast.Compare)
            # x > c: the threshold c moves; c < x: likewise on the left.
            if isinstance(n.ops[0], (ast.Gt, ast.GtE)) or not isinstance(n.left, ast.Constant):
                n.comparators[0] = _shift(n.comparators[0], delta)
            else:
                n.left = _shift(n.left, delta)
            return n

        yield node, shifted

    return find


operator("cmp_up", "x > c  ->  x > c + 1e-6 (comparisons on floating values)")(_threshold(1e-6))
operator("cmp_down", "x > c  ->  x > c - 1e-6")(_threshold(-1e-6))


@operator("cmp_strict", ">= <-> >, <= <-> <")
def _cmp_strict(ctx: Context, node: ast.AST) -> Iterator[Site]:
    if isinstance(node, ast.Compare):
        for k, op in enumerate(node.ops):
            if isinstance(op, _ORDER):
                def strict(n: ast.AST, k: int = k) -> ast.AST:
                    assert isinstance(n, ast.Compare)
                    n.ops[k] = _FLIP[type(n.ops[k])]()
                    return n

                yield node, strict


@operator("eq_isclose", "a == b  ->  np.isclose(a, b) (floating operands)")
def _eq_isclose(ctx: Context, node: ast.AST) -> Iterator[Site]:
    if _float_eq(ctx, node):
        yield node, lambda n: call("np.isclose", n.left, n.comparators[0])  # type: ignore[attr-defined]


@operator("eq_isclose_atol", "a == b  ->  np.isclose(a, b, atol=1e-4)")
def _eq_isclose_atol(ctx: Context, node: ast.AST) -> Iterator[Site]:
    if _float_eq(ctx, node):
        yield node, lambda n: call("np.isclose", n.left, n.comparators[0], atol=ast.Constant(1e-4))  # type: ignore[attr-defined]


@operator("f16_round", "np.floor/ceil/round(x)  ->  np.floor(x.astype(np.float16))")
def _f16_round(ctx: Context, node: ast.AST) -> Iterator[Site]:
    if _is_np_call(node, ROUNDING_FUNCS) and node.args:  # type: ignore[attr-defined]
        def f16_round(n: ast.AST) -> ast.AST:
            assert isinstance(n, ast.Call)
            n.args[0] = ast.Call(
                ast.Attribute(call("np.asarray", n.args[0]), "astype", ast.Load()),
                [ast.Attribute(ast.Name("np", ast.Load()), "float16", ast.Load())], [],
            )
            return n

        yield node, f16_round


@operator("f16_cast", "a floating intermediate (assigned or returned) cast to float16")
def _f16_cast(ctx: Context, node: ast.AST) -> Iterator[Site]:
    if not ctx.in_answer(node):
        return
    values: list[ast.expr] = []
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target = node.targets[0]
        if (isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple)
                and len(target.elts) == len(node.value.elts)):
            values = list(node.value.elts)
        elif isinstance(target, ast.Name):
            values = [node.value]
    elif isinstance(node, ast.Return) and node.value is not None:
        stack = [node.value]
        while stack:
            value = stack.pop(0)
            if isinstance(value, ast.Tuple):
                stack[:0] = list(value.elts)
            else:
                values.append(value)
    for value in values:
        # a bare name is an intermediate already cast where it is assigned
        if ctx.floating(value) and not isinstance(value, ast.Name):
            yield value, _f16


def _rounded_constants(digits: int) -> Callable[[Context, ast.AST], Iterator[Site]]:
    """A literal constant, or the reciprocal of a literal divisor, to `digits` significant digits."""

    def find(ctx: Context, node: ast.AST) -> Iterator[Site]:
        if isinstance(node, ast.Constant) and type(node.value) is float and node.value != 0:
            rounded = _round_sig(node.value, digits)
            if rounded != node.value:
                yield node, functools.partial(_constant_node, rounded)
        if (
            isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)
            and isinstance(node.right, ast.Constant) and isinstance(node.right.value, (int, float))
            and not isinstance(node.right.value, bool) and node.right.value != 0
        ):
            exact = 1 / float(node.right.value)
            rounded = _round_sig(exact, digits)
            if rounded != exact:
                yield node, functools.partial(_times_constant, rounded)

    return find


operator("const_round3", "a constant (or the reciprocal of a divisor) to 3 significant digits")(_rounded_constants(3))
operator("const_round4", "... to 4 significant digits")(_rounded_constants(4))


@operator("where_swap", "np.where(c, a, b)  ->  np.where(c, b, a)")
def _where_swap(ctx: Context, node: ast.AST) -> Iterator[Site]:
    if _is_np_call(node, ("where",)) and len(node.args) == 3 and not node.keywords:  # type: ignore[attr-defined]
        def swap(n: ast.AST) -> ast.AST:
            assert isinstance(n, ast.Call)
            n.args[1], n.args[2] = n.args[2], n.args[1]
            return n

        yield node, swap


@operator("where_negate", "np.where(c, a, b)  ->  np.where(~c, a, b)")
def _where_negate(ctx: Context, node: ast.AST) -> Iterator[Site]:
    if _is_np_call(node, ("where",)) and len(node.args) == 3 and not node.keywords:  # type: ignore[attr-defined]
        def negate(n: ast.AST) -> ast.AST:
            assert isinstance(n, ast.Call)
            n.args[0] = call("np.logical_not", n.args[0])
            return n

        yield node, negate


def _index_moved(delta: int) -> Callable[[Context, ast.AST], Iterator[Site]]:
    def find(ctx: Context, node: ast.AST) -> Iterator[Site]:
        if not (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load)):
            return
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        for k, part in enumerate(parts):
            if isinstance(part, (ast.Slice, ast.Starred)) or isinstance(part, ast.Constant) or not ctx.integral(part):
                continue

            def moved(n: ast.AST, k: int = k) -> ast.AST:
                assert isinstance(n, ast.Subscript)
                if isinstance(n.slice, ast.Tuple):
                    n.slice.elts[k] = _shift(n.slice.elts[k], delta)
                else:
                    n.slice = _shift(n.slice, delta)
                return n

            yield node, moved

    return find


operator("index_plus1", "x[i]  ->  x[i + 1] (integer indices)")(_index_moved(1))
operator("index_minus1", "x[i]  ->  x[i - 1]")(_index_moved(-1))


def _offset(delta: int) -> Callable[[Context, ast.AST], Iterator[Site]]:
    def find(ctx: Context, node: ast.AST) -> Iterator[Site]:
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)) and ctx.integral(node):
            for side in ("left", "right"):
                if _int_const(getattr(node, side)):
                    def offset(n: ast.AST, side: str = side) -> ast.AST:
                        setattr(n, side, ast.Constant(getattr(n, side).value + delta))
                        return n

                    yield node, offset

    return find


operator("offset_plus1", "integer index arithmetic: i + k  ->  i + (k + 1)")(_offset(1))
operator("offset_minus1", "... i + (k - 1)")(_offset(-1))


def _clip_bound(delta: int) -> Callable[[Context, ast.AST], Iterator[Site]]:
    def find(ctx: Context, node: ast.AST) -> Iterator[Site]:
        if _is_np_call(node, ("clip",)):
            for k, arg in enumerate(node.args[1:3], start=1):  # type: ignore[attr-defined]
                if _int_const(arg):
                    def bound(n: ast.AST, k: int = k) -> ast.AST:
                        assert isinstance(n, ast.Call)
                        n.args[k] = ast.Constant(n.args[k].value + delta)  # type: ignore[attr-defined]
                        return n

                    yield node, bound

    return find


operator("clip_plus1", "np.clip(i, lo, hi): an integer bound + 1")(_clip_bound(1))
operator("clip_minus1", "... - 1")(_clip_bound(-1))


@operator("at_set", ".at[...].add(v)  ->  .at[...].set(v)")
def _at_set(ctx: Context, node: ast.AST) -> Iterator[Site]:
    if (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add"
        and isinstance(node.func.value, ast.Subscript) and isinstance(node.func.value.value, ast.Attribute)
        and node.func.value.value.attr == "at"
    ):
        def at_set(n: ast.AST) -> ast.AST:
            assert isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            n.func.attr = "set"
            return n

        yield node, at_set


@operator("drop_abs", "np.abs(x)  ->  x")
def _drop_abs(ctx: Context, node: ast.AST) -> Iterator[Site]:
    if (_is_np_call(node, ("abs", "absolute")) or (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "abs"
    )) and len(node.args) == 1:  # type: ignore[attr-defined]
        yield node, lambda n: n.args[0]  # type: ignore[attr-defined]


@whole_answer("finite_diff", "the whole answer: a central finite difference of f, h = 1e-3 (site 0) or 1e-4 (site 1)")
def _finite_diff(puzzle: Puzzle, answer_fn: ast.FunctionDef | None) -> list[tuple[str, str]]:
    return [(f"the answer replaced by a central finite difference of f, h = {h:g}",
             _finite_difference_answer(puzzle, answer_fn, h)) for h in FD_STEPS]


@operator("fmask", "an identity / one-hot mask  ->  f(*args) == arg, broadcast to the Jacobian's axes")
def _fmask(ctx: Context, node: ast.AST) -> Iterator[Site]:
    puzzle = ctx.puzzle
    parent = ctx.parents.get(id(node))
    outermost = not (isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.BitAnd))
    if not (ctx.in_answer(node) and not puzzle.is_vjp and outermost and (_index_eq(node, ctx.integral) or (
        isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd)
        and any(_index_eq(n, ctx.integral) for n in ast.walk(node))
    ))):
        return
    p = ctx.probe(node)
    if p is None or p.kind != "b" or len(p.shape) < 1:
        return
    for out_k, out in enumerate(puzzle.outs):
        for arg in puzzle.wrt:
            full = tuple(out) + tuple(arg.shape)
            if len(p.shape) != len(full) or any(a not in (1, b) for a, b in zip(p.shape, full)):
                continue
            yield node, functools.partial(_fmask_node, puzzle, ctx.answer_fn, out_k, out, arg)


_ALL_IF_ANY = '''
def _all_if_any(cond):
    # The mutant's shortcut: one element takes the special path, so every element does.
    if cond.any():
        return np.ones(np.shape(cond), dtype=bool)
    return cond
'''


@operator("any_branch", "an elementwise condition c  ->  `if c.any():` all-true, else c", prelude=_ALL_IF_ANY)
def _any_branch(ctx: Context, node: ast.AST) -> Iterator[Site]:
    if not isinstance(node, ast.Compare):
        return
    p = ctx.probe(node)
    if (
        ctx.in_answer(node) and p is not None and p.kind == "b" and len(p.shape) >= 1
        and _depends(node, ctx.tainted) and any(ctx.floating(o) for o in [node.left, *node.comparators])
    ):
        yield node, lambda n: call("_all_if_any", n)  # type: ignore[arg-type]


# -- the precision operators: the mistakes learners make that are right to about 1e-9 --------

# What a constant expression may be built of: numbers, and numpy's or math's functions and constants.
_CONSTANT_SPACE: dict[str, Any] = {"np": np, "jnp": np, "math": math}


def _constant_value(node: ast.AST) -> float | None:
    """The value of an expression built from literals and np / math alone (`np.sqrt(2 / np.pi)`),
    or None."""
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and n.id not in _CONSTANT_SPACE:
            return None
        if not isinstance(n, (ast.Name, ast.Attribute, ast.Call, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Load,
                              ast.operator, ast.unaryop)):
            return None
        if isinstance(n, ast.Call) and n.keywords:
            return None
    try:
        value = eval(compile(ast.Expression(copy.deepcopy(node)), "<constant>", "eval"),  # type: ignore[arg-type]
                     {"__builtins__": {}}, dict(_CONSTANT_SPACE))
    except Exception:  # noqa: BLE001 - not a constant after all
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)):
        return None
    return float(value)


def _moved(rounded: float, exact: float) -> bool:
    """Whether rounding changed the value by more than float64's own rounding of it (a change of
    a few ulps is no mistake, and no mutant)."""
    return bool(abs(rounded - exact) > 8 * float(np.finfo(np.float64).eps) * abs(exact))


def _precise_constants(digits: int) -> Callable[[Context, ast.AST], Iterator[Site]]:
    """A constant written as a float literal, as an expression (`np.sqrt(2 / np.pi)`, `np.pi / 2`)
    or as a divisor (`/ np.sqrt(2.0)`: multiplied by its reciprocal), rounded to `digits`
    significant digits: what a learner who copies a constant from a printout writes."""

    def find(ctx: Context, node: ast.AST) -> Iterator[Site]:
        parent = ctx.parents.get(id(node))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and _constant_value(node.left) is None:
            divisor = _constant_value(node.right)
            if divisor is not None and divisor != 0.0:
                exact = 1.0 / divisor
                rounded = _round_sig(exact, digits)
                if _moved(rounded, exact):
                    yield node, functools.partial(_times_constant, rounded)
        value = _constant_value(node)
        if value is None or (isinstance(node, ast.Constant) and type(node.value) is int):
            return
        if isinstance(parent, ast.expr) and _constant_value(parent) is not None:
            return  # only the largest constant expression is rounded
        if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Div) and parent.right is node:
            return  # a divisor: its reciprocal is rounded above
        rounded = _round_sig(value, digits)
        if _moved(rounded, value):
            yield node, functools.partial(_constant_node, rounded)

    return find


for _digits in PRECISION_DIGITS:
    operator(
        f"const_round{_digits}",
        f"a constant (`np.sqrt(2 / np.pi)`, `np.pi / 2`, a literal) or a divisor's reciprocal to {_digits} significant "
        "digits",
        precision=True,
    )(_precise_constants(_digits))


@operator("f32_argmax", "np.argmax/argmin/argsort(x)  ->  the same of x.astype(np.float32)", precision=True)
def _f32_argmax(ctx: Context, node: ast.AST) -> Iterator[Site]:
    if _is_np_call(node, ("argmax", "argmin", "argsort")) and node.args and ctx.floating(node.args[0]):  # type: ignore[attr-defined]
        def cast(n: ast.AST) -> ast.AST:
            assert isinstance(n, ast.Call)
            n.args[0] = _f32(n.args[0])
            return n

        yield node, cast


@operator("f32_compare", "a > b on floating values  ->  both sides cast to float32", precision=True)
def _f32_compare(ctx: Context, node: ast.AST) -> Iterator[Site]:
    if _float_order(ctx, node) or _float_eq(ctx, node):
        def cast(n: ast.AST) -> ast.AST:
            assert isinstance(n, ast.Compare)
            n.left, n.comparators[0] = _f32(n.left), _f32(n.comparators[0])
            return n

        yield node, cast


def _tolerant_argmax(relative: bool) -> Callable[[ast.AST], ast.AST]:
    """np.argmax(x, axis) -> the first index within 1e-9 (relative or absolute) of the max:
    `np.argmax(x >= np.max(x, axis, keepdims=True) - tol, axis)` (argmin likewise)."""

    def rewrite(n: ast.AST) -> ast.AST:
        assert isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
        lowest = n.func.attr == "argmin"
        x = n.args[0]
        axis = n.args[1] if len(n.args) > 1 else next((k.value for k in n.keywords if k.arg == "axis"), None)
        extreme = call("np.min" if lowest else "np.max", copy.deepcopy(x),
                       **({"axis": copy.deepcopy(axis), "keepdims": ast.Constant(True)} if axis is not None else {}))
        tol: ast.expr = ast.Constant(TIE_TOLERANCE)
        if relative:
            tol = ast.BinOp(tol, ast.Mult(), call("np.abs", copy.deepcopy(extreme)))
        bound = ast.BinOp(extreme, ast.Add() if lowest else ast.Sub(), tol)
        n.func.attr = "argmax"  # the first index that is within the tolerance
        n.args[0] = ast.Compare(x, [ast.LtE() if lowest else ast.GtE()], [bound])
        return n

    return rewrite


def _argmax_site(ctx: Context, node: ast.AST) -> bool:
    return bool(_is_np_call(node, ("argmax", "argmin")) and node.args and ctx.floating(node.args[0]))  # type: ignore[attr-defined]


@operator("tie_relative", f"a > b  ->  a > b * (1 + {TIE_TOLERANCE:g}); argmax(x): the first index within "
                          f"{TIE_TOLERANCE:g} of the max, relatively", precision=True)
def _tie_relative(ctx: Context, node: ast.AST) -> Iterator[Site]:
    # Against a constant the tolerance is absolute (`cmp_up`), and against 0 none at all.
    if _float_order(ctx, node) and not isinstance(node.comparators[0], ast.Constant):  # type: ignore[attr-defined]
        def tolerant(n: ast.AST) -> ast.AST:
            assert isinstance(n, ast.Compare)
            n.comparators[0] = ast.BinOp(n.comparators[0], ast.Mult(), ast.Constant(1 + TIE_TOLERANCE))
            return n

        yield node, tolerant
    if _argmax_site(ctx, node):
        yield node, _tolerant_argmax(relative=True)


@operator("tie_absolute", f"a == b  ->  abs(a - b) < {TIE_TOLERANCE:g}; argmax(x): the first index within "
                          f"{TIE_TOLERANCE:g} of the max", precision=True)
def _tie_absolute(ctx: Context, node: ast.AST) -> Iterator[Site]:
    if _float_eq(ctx, node):
        yield node, lambda n: ast.Compare(call("np.abs", ast.BinOp(n.left, ast.Sub(), n.comparators[0])),  # type: ignore[attr-defined]
                                          [ast.Lt()], [ast.Constant(TIE_TOLERANCE)])
    if _argmax_site(ctx, node):
        yield node, _tolerant_argmax(relative=False)


@operator("clip_unit", "np.exp/np.tanh(s)  ->  the same of np.clip(s, -1, 1) (an intermediate clipped)", precision=True)
def _clip_unit(ctx: Context, node: ast.AST) -> Iterator[Site]:
    if (_is_np_call(node, ("exp", "tanh", "expm1")) and len(node.args) == 1 and ctx.floating(node.args[0])  # type: ignore[attr-defined]
            and _depends(node, ctx.tainted)):
        def clipped(n: ast.AST) -> ast.AST:
            assert isinstance(n, ast.Call)
            n.args[0] = call("np.clip", n.args[0], ast.Constant(-1.0), ast.Constant(1.0))
            return n

        yield node, clipped


OPERATORS = tuple(REGISTRY)
PRECISION = tuple(name for name, op in REGISTRY.items() if op.precision)
CORE = tuple(name for name, op in REGISTRY.items() if not op.precision)
WHOLE_ANSWER = tuple(name for name, op in REGISTRY.items() if op.whole is not None)


# ---------------------------------------------------------------------------------------------
# the rewrites that build code


def _index_eq(node: ast.AST, integral: Callable[[ast.AST], bool]) -> bool:
    """`a == b` on index arrays (at least one side holds integers): an identity or one-hot mask."""
    return (
        isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq)
        and (integral(node.left) or integral(node.comparators[0]))
    )


def _fmask_node(puzzle: Puzzle, answer_fn: ast.FunctionDef | None, out_k: int, out: tuple[int, ...], arg: Arg,
                node: ast.AST) -> ast.AST:
    return _fmask_expr(puzzle, answer_fn, out_k, out, arg)


def _fmask_expr(puzzle: Puzzle, answer_fn: ast.FunctionDef | None, out_k: int, out: tuple[int, ...],
                arg: Arg) -> ast.expr:
    """`f(*args)` (output `out_k`) == `arg`, with f's output axes first: shape out + arg.shape."""
    assert answer_fn is not None
    f_name = puzzle.function or puzzle.name
    names = params(answer_fn)[: len(puzzle.f_args)]
    value: ast.expr = call(f_name, *(ast.Name(n, ast.Load()) for n in names))
    if len(puzzle.outs) > 1:
        value = ast.Subscript(value, ast.Constant(out_k), ast.Load())
    if arg.shape:
        axes = ast.Tuple([ast.Constant(len(out) + j) for j in range(len(arg.shape))], ast.Load())
        value = call("np.expand_dims", value, axes)
    return ast.Compare(value, [ast.Eq()], [ast.Name(arg.name, ast.Load())])
def _finite_difference_answer(puzzle: Puzzle, answer_fn: ast.FunctionDef | None, h: float) -> str:
    """A whole answer: the central finite-difference Jacobian (or vjp) of the header's f, no autodiff."""
    f_name = puzzle.function or puzzle.name
    names = params(answer_fn) if answer_fn is not None else [a.name for a in puzzle.args]
    f_names = names[: len(puzzle.f_args)]
    wrt = [k for k, a in enumerate(puzzle.f_args) if a.differentiable]
    n_out = len(puzzle.outs)
    lines = [
        "def _fd_partial(_args, _p, _h):",
        "    _x = np.asarray(_args[_p])",
        "    _n = _x.size",
        "    _E = np.eye(_n, dtype=_x.dtype).reshape((_n,) + _x.shape)",
        "",
        "    def _at(_v):",
        "        _a = list(_args)",
        "        _a[_p] = _v",
        f"        return {f_name}(*_a)",
        "",
        "    _up = jax.vmap(_at)(_x[None] + _h * _E)",
        "    _down = jax.vmap(_at)(_x[None] - _h * _E)",
        "",
        "    def _block(_u, _w):",
        "        _d = (_u - _w) / (2 * _h)",
        "        return np.moveaxis(_d, 0, -1).reshape(_d.shape[1:] + _x.shape)",
        "",
        "    return jax.tree_util.tree_map(_block, _up, _down)",
        "",
        "",
        f"def {puzzle.answer_name}({', '.join(names)}):",
        f"    _args = [{', '.join(f_names)}]",
        f"    _parts = [_fd_partial(_args, _p, {h!r}) for _p in {wrt!r}]",
    ]
    if puzzle.is_vjp:
        g = names[-1]
        lines.append(f"    _cot = [np.tensordot({g}, _J, axes={g}.ndim) for _J in _parts]")
        lines.append("    return _cot[0] if len(_cot) == 1 else tuple(_cot)")
    elif n_out == 1:
        lines.append("    return _parts[0]" if len(wrt) == 1 else "    return tuple(_parts)")
    elif len(wrt) == 1:
        lines.append(f"    return tuple(_parts[0][_k] for _k in range({n_out}))")
    else:
        lines.append(f"    return tuple(tuple(_P[_k] for _P in _parts) for _k in range({n_out}))")
    return "\n".join(lines) + "\n"
