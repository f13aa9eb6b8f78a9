"""Mutation testing for the checker: plausible wrong answers, and an independent proof that they are wrong.

Used by the kit's tests (tests/mutation/score.py, tests/test_mutation.py) and by `jacpuzzles pack
check`, which prints a pack's mutation score so that its author sees whether the draws catch
mistakes.

Two halves, both independent of the checker's own sampler (`checker/engine/_sampling.py` is neither
imported nor read):

* `mutants(puzzle)` rewrites the reference answer of a puzzle (the part of
  `solutions/<chapter>/<puzzle>.py` below the marker line) with `ast` transforms, one operator at
  one site per mutant, and returns full files (header + mutated answer), each with a stable id
  `<puzzle>:<operator>:<site>`.
* `prove_wrong(puzzle, path)` runs an answer file on thousands of float64 inputs of its own
  (uniform draws plus special values: integers and halves and their near neighbours, zeros
  among magnitudes 1e-8..1e4 (the range the checker's accuracy contract covers), one-hot and near-one-hot probability vectors, ties and near-ties,
  arguments equal to one another or to slices of one another, every value of an integer
  argument) and compares with `jax.jacrev` of the catalog's `f` (`jax.vjp` for a backward-pass
  puzzle). It returns a `Witness` (an input where the answer is off by more than
  1e-6 * (1 + |truth|), is not finite, has the wrong shape, or raises) or None.

Everything numeric runs under `with jax.enable_x64(True):`; JAX's global configuration is
never changed.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import functools
import importlib.util
import itertools
import math
import sys
import zlib
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

MARKER = "# ---- your answer: everything below this line is yours to edit ----"

OPERATORS = (
    "cmp_up",  # x > c  ->  x > c + 1e-6 (comparisons on floating values)
    "cmp_down",  # x > c  ->  x > c - 1e-6
    "cmp_strict",  # >= <-> >, <= <-> <
    "eq_isclose",  # a == b  ->  np.isclose(a, b) (floating operands)
    "eq_isclose_atol",  # a == b  ->  np.isclose(a, b, atol=1e-4)
    "f16_round",  # np.floor/ceil/round(x)  ->  np.floor(x.astype(np.float16))
    "f16_cast",  # a floating intermediate (assigned or returned) cast to float16
    "const_round3",  # a constant (or the reciprocal of a divisor) to 3 significant digits
    "const_round4",  # ... to 4 significant digits
    "where_swap",  # np.where(c, a, b)  ->  np.where(c, b, a)
    "where_negate",  # np.where(c, a, b)  ->  np.where(~c, a, b)
    "index_plus1",  # x[i]  ->  x[i + 1] (integer indices)
    "index_minus1",  # x[i]  ->  x[i - 1]
    "offset_plus1",  # integer index arithmetic: i + k  ->  i + (k + 1)
    "offset_minus1",  # ... i + (k - 1)
    "clip_plus1",  # np.clip(i, lo, hi): an integer bound + 1
    "clip_minus1",  # ... - 1
    "at_set",  # .at[...].add(v)  ->  .at[...].set(v)
    "drop_abs",  # np.abs(x)  ->  x
    "finite_diff",  # the whole answer: a central finite difference of f, h = 1e-3 (site 0) or 1e-4 (site 1)
    "fmask",  # an identity / one-hot mask  ->  f(*args) == arg, broadcast to the Jacobian's axes
    "any_branch",  # an elementwise condition c  ->  `if c.any():` all-true, else c
)
FD_STEPS = (1e-3, 1e-4)
WHOLE_ANSWER = ("finite_diff",)  # operators that replace the whole answer
ROUNDING_FUNCS = ("floor", "ceil", "round", "rint", "trunc")


@dataclasses.dataclass(frozen=True)
class Mutant:
    id: str  # "<puzzle>:<operator>:<site>"
    puzzle: str
    operator: str
    site: int
    detail: str  # what changed, e.g. "line 7: x > 0  ->  x > 1e-06"
    source: str  # the full answer file


# ---------------------------------------------------------------------------------------------
# reference answers


def reference_path(name: str) -> Path:
    """The kit's reference answer file of puzzle `name`."""
    from checker.engine import _solutions

    folder = _solutions.folder()
    found = sorted(folder.glob(f"*/{name}.py")) if folder is not None else []
    if not found:
        raise FileNotFoundError(f"no reference answer solutions/*/{name}.py")
    return found[0]


def split_reference(name: str, text: str | None = None) -> tuple[str, str]:
    """(header, answer) of a reference file (the kit's, or `text`); the header ends with the marker line."""
    text = reference_path(name).read_text(encoding="utf-8") if text is None else text
    at = text.index(MARKER) + len(MARKER)
    return text[:at] + "\n", text[at:]


def _puzzle(puzzle: Any) -> Any:
    if isinstance(puzzle, str):
        from checker.engine import _catalog

        by_name = {p.name: p for p in _catalog.puzzles()}
        return by_name[puzzle]
    return puzzle


# ---------------------------------------------------------------------------------------------
# probing: the shape and dtype of every expression of the reference answer, on one input


def _numbered(tree: ast.AST) -> list[ast.AST]:
    """Every node in a deterministic order (the same for a tree and its deep copy)."""
    return list(ast.walk(tree))


def _parents(tree: ast.AST) -> dict[int, ast.AST]:
    return {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _in_annotation(node: ast.AST, parents: dict[int, ast.AST]) -> bool:
    child, parent = node, parents.get(id(node))
    while parent is not None:
        if isinstance(parent, ast.arg) and child is parent.annotation:
            return True
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)) and child is parent.returns:
            return True
        if isinstance(parent, ast.AnnAssign) and child is parent.annotation:
            return True
        child, parent = parent, parents.get(id(parent))
    return False


def _enclosing_function(node: ast.AST, parents: dict[int, ast.AST]) -> ast.FunctionDef | None:
    parent = parents.get(id(node))
    while parent is not None:
        if isinstance(parent, ast.FunctionDef):
            return parent
        parent = parents.get(id(parent))
    return None


_PROBED = (ast.Compare, ast.BinOp, ast.BoolOp, ast.UnaryOp, ast.Call, ast.Name, ast.Subscript, ast.Attribute, ast.IfExp, ast.Constant)


class _Wrap(ast.NodeTransformer):
    """Replace chosen nodes (by identity) with `make(node)`, children first."""

    def __init__(self, chosen: dict[int, Callable[[ast.AST], ast.AST]]) -> None:
        self.chosen = chosen

    def visit(self, node: ast.AST) -> Any:
        make = self.chosen.get(id(node))
        node = self.generic_visit(node)
        return make(node) if make is not None else node


def _call(func: str, *args: ast.expr, **kwargs: ast.expr) -> ast.Call:
    parts = func.split(".")
    target: ast.expr = ast.Name(parts[0], ast.Load())
    for attr in parts[1:]:
        target = ast.Attribute(target, attr, ast.Load())
    return ast.Call(target, list(args), [ast.keyword(k, v) for k, v in kwargs.items()])


@dataclasses.dataclass(frozen=True)
class Probe:
    shape: tuple[int, ...]
    kind: str  # numpy dtype kind: "b", "i", "u", "f"


def _describe_value(value: Any) -> Probe | None:
    if isinstance(value, bool):
        return Probe((), "b")
    if isinstance(value, int):
        return Probe((), "i")
    if isinstance(value, float):
        return Probe((), "f")
    dtype, shape = getattr(value, "dtype", None), getattr(value, "shape", None)
    if dtype is None or shape is None:
        return None
    try:
        return Probe(tuple(int(n) for n in shape), np.dtype(dtype).kind)
    except TypeError:
        return None


def _probe(puzzle: Any, header: str, tree: ast.Module) -> dict[int, Probe]:
    """Run the answer once (eagerly, float64) with every expression recorded: walk index -> Probe."""
    import jax

    work = copy.deepcopy(tree)
    nodes = _numbered(work)
    parents = _parents(work)
    chosen: dict[int, Callable[[ast.AST], ast.AST]] = {}
    for k, node in enumerate(nodes):
        if not isinstance(node, _PROBED) or _in_annotation(node, parents):
            continue
        if getattr(node, "ctx", ast.Load()).__class__ is not ast.Load:
            continue
        chosen[id(node)] = lambda n, k=k: _call("__probe__", ast.Constant(k), n)  # type: ignore[misc]
    work = ast.fix_missing_locations(_Wrap(chosen).visit(work))
    seen: dict[int, Probe] = {}

    def record(k: int, value: Any) -> Any:
        if k not in seen:
            described = _describe_value(value)
            if described is not None:
                seen[k] = described
        return value

    source = header + "\n" + ast.unparse(work) + "\n"
    space: dict[str, Any] = {"__probe__": record, "__name__": f"_mutation_probe_{puzzle.name}"}
    with jax.enable_x64(True):
        exec(compile(source, f"<probe:{puzzle.name}>", "exec"), space)
        answer = space[puzzle.answer_name]
        data = inputs(puzzle)
        try:  # shapes and dtypes are all a probe needs: trace, do not run
            jax.make_jaxpr(puzzle.on_dynamic(answer))(*data.dynamic_at(0))
        except Exception:  # noqa: BLE001 - Python control flow on values: run it eagerly
            seen.clear()
            try:
                answer(*data.args_at(0))
            except Exception:  # noqa: BLE001 - a probe that fails only loses probe-guided operators
                pass
    return seen


# ---------------------------------------------------------------------------------------------
# mutation operators


def _params(fn: ast.FunctionDef) -> list[str]:
    return [a.arg for a in fn.args.args]


def _tainted_names(fn: ast.FunctionDef) -> set[str]:
    """Names in `fn` whose value depends on its parameters (a simple forward pass, to a fixpoint)."""
    tainted = set(_params(fn))
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


def _fmask_node(puzzle: Any, answer_fn: ast.FunctionDef | None, out_k: int, out: tuple[int, ...], arg: Any, node: ast.AST) -> ast.AST:
    return _fmask_expr(puzzle, answer_fn, out_k, out, arg)


def _f16(node: ast.expr) -> ast.expr:
    return _call("np.asarray", node, dtype=ast.Attribute(ast.Name("np", ast.Load()), "float16", ast.Load()))


def _shift(node: ast.expr, delta: float) -> ast.expr:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return ast.Constant(node.value + delta)
    return ast.BinOp(node, ast.Add() if delta > 0 else ast.Sub(), ast.Constant(abs(delta)))


_FLIP = {ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Lt: ast.LtE, ast.LtE: ast.Lt}
_ORDER = (ast.Gt, ast.GtE, ast.Lt, ast.LtE)

# A site: (walk index of the node to replace, how to rebuild it, a short description).
_Site = tuple[int, Callable[[ast.AST], ast.AST], str]


def _sites(puzzle: Any, tree: ast.Module, probes: dict[int, Probe]) -> dict[str, list[_Site]]:
    nodes = _numbered(tree)
    parents = _parents(tree)
    index = {id(n): k for k, n in enumerate(nodes)}
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    answer_fn = next((f for f in functions if f.name == puzzle.answer_name), None)
    tainted = _tainted_names(answer_fn) if answer_fn is not None else set()
    found: dict[str, list[_Site]] = {op: [] for op in OPERATORS}

    def probe(node: ast.AST) -> Probe | None:
        return probes.get(index[id(node)])

    def floating(node: ast.AST) -> bool:
        p = probe(node)
        return p is not None and p.kind == "f"

    def integral(node: ast.AST) -> bool:
        p = probe(node)
        return p is not None and p.kind in "iu"

    def add(op: str, node: ast.AST, make: Callable[[ast.AST], ast.AST]) -> None:
        before = ast.unparse(node)
        try:
            after = ast.unparse(make(copy.deepcopy(node)))
        except Exception:  # noqa: BLE001 - an operator that cannot rebuild this node skips it
            return
        line = getattr(node, "lineno", "?")
        found[op].append((index[id(node)], make, f"line {line}: {before}  ->  {after}"))

    for node in nodes:
        if _in_annotation(node, parents):
            continue
        fn = _enclosing_function(node, parents)
        in_answer = fn is not None and fn is answer_fn

        if isinstance(node, ast.Compare):
            ops, operands = node.ops, [node.left, *node.comparators]
            for k, op in enumerate(ops):
                if isinstance(op, _ORDER):
                    def strict(n: ast.AST, k: int = k) -> ast.AST:
                        assert isinstance(n, ast.Compare)
                        n.ops[k] = _FLIP[type(n.ops[k])]()
                        return n

                    add("cmp_strict", node, strict)
                    if len(ops) == 1 and (floating(operands[0]) or floating(operands[1])):
                        for op_name, delta in (("cmp_up", 1e-6), ("cmp_down", -1e-6)):
                            def shifted(n: ast.AST, delta: float = delta) -> ast.AST:
                                assert isinstance(n, ast.Compare)
                                # x > c: the threshold c moves; c < x: likewise on the left.
                                if isinstance(n.ops[0], (ast.Gt, ast.GtE)) or not isinstance(n.left, ast.Constant):
                                    n.comparators[0] = _shift(n.comparators[0], delta)
                                else:
                                    n.left = _shift(n.left, delta)
                                return n

                            add(op_name, node, shifted)
            if len(ops) == 1 and isinstance(ops[0], ast.Eq) and (floating(operands[0]) or floating(operands[1])):
                add("eq_isclose", node, lambda n: _call("np.isclose", n.left, n.comparators[0]))  # type: ignore[attr-defined]
                add("eq_isclose_atol", node, lambda n: _call("np.isclose", n.left, n.comparators[0], atol=ast.Constant(1e-4)))  # type: ignore[attr-defined]
            p = probe(node)
            if (
                in_answer and p is not None and p.kind == "b" and len(p.shape) >= 1
                and _depends(node, tainted) and any(floating(o) for o in operands)
            ):
                add("any_branch", node, lambda n: _call("_all_if_any", n))  # type: ignore[arg-type]

        if _is_np_call(node, ROUNDING_FUNCS) and node.args:  # type: ignore[attr-defined]
            def f16_round(n: ast.AST) -> ast.AST:
                assert isinstance(n, ast.Call)
                n.args[0] = ast.Call(
                    ast.Attribute(_call("np.asarray", n.args[0]), "astype", ast.Load()),
                    [ast.Attribute(ast.Name("np", ast.Load()), "float16", ast.Load())], [],
                )
                return n

            add("f16_round", node, f16_round)

        if _is_np_call(node, ("where",)) and len(node.args) == 3 and not node.keywords:  # type: ignore[attr-defined]
            def swap(n: ast.AST) -> ast.AST:
                assert isinstance(n, ast.Call)
                n.args[1], n.args[2] = n.args[2], n.args[1]
                return n

            def negate(n: ast.AST) -> ast.AST:
                assert isinstance(n, ast.Call)
                n.args[0] = _call("np.logical_not", n.args[0])
                return n

            add("where_swap", node, swap)
            add("where_negate", node, negate)

        if isinstance(node, ast.Constant) and type(node.value) is float and node.value != 0:
            for op_name, digits in (("const_round3", 3), ("const_round4", 4)):
                rounded = _round_sig(node.value, digits)
                if rounded != node.value:
                    add(op_name, node, functools.partial(_constant_node, rounded))
        if (
            isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)
            and isinstance(node.right, ast.Constant) and isinstance(node.right.value, (int, float))
            and not isinstance(node.right.value, bool) and node.right.value != 0
        ):
            for op_name, digits in (("const_round3", 3), ("const_round4", 4)):
                exact = 1 / float(node.right.value)
                rounded = _round_sig(exact, digits)
                if rounded != exact:
                    add(op_name, node, functools.partial(_times_constant, rounded))

        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            for k, part in enumerate(parts):
                if isinstance(part, (ast.Slice, ast.Starred)) or isinstance(part, ast.Constant) or not integral(part):
                    continue
                for op_name, delta in (("index_plus1", 1), ("index_minus1", -1)):
                    def moved(n: ast.AST, k: int = k, delta: int = delta) -> ast.AST:
                        assert isinstance(n, ast.Subscript)
                        if isinstance(n.slice, ast.Tuple):
                            n.slice.elts[k] = _shift(n.slice.elts[k], delta)
                        else:
                            n.slice = _shift(n.slice, delta)
                        return n

                    add(op_name, node, moved)

        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)) and integral(node):
            for side in ("left", "right"):
                if _int_const(getattr(node, side)):
                    for op_name, delta in (("offset_plus1", 1), ("offset_minus1", -1)):
                        def offset(n: ast.AST, side: str = side, delta: int = delta) -> ast.AST:
                            value = getattr(n, side).value
                            setattr(n, side, ast.Constant(value + delta))
                            return n

                        add(op_name, node, offset)

        if _is_np_call(node, ("clip",)):
            for k, arg in enumerate(node.args[1:3], start=1):  # type: ignore[attr-defined]
                if _int_const(arg):
                    for op_name, delta in (("clip_plus1", 1), ("clip_minus1", -1)):
                        def bound(n: ast.AST, k: int = k, delta: int = delta) -> ast.AST:
                            assert isinstance(n, ast.Call)
                            n.args[k] = ast.Constant(n.args[k].value + delta)  # type: ignore[attr-defined]
                            return n

                        add(op_name, node, bound)

        if (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add"
            and isinstance(node.func.value, ast.Subscript) and isinstance(node.func.value.value, ast.Attribute)
            and node.func.value.value.attr == "at"
        ):
            def at_set(n: ast.AST) -> ast.AST:
                assert isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                n.func.attr = "set"
                return n

            add("at_set", node, at_set)

        if (_is_np_call(node, ("abs", "absolute")) or (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "abs"
        )) and len(node.args) == 1:  # type: ignore[attr-defined]
            add("drop_abs", node, lambda n: n.args[0])  # type: ignore[attr-defined]

        # fmask: an identity / one-hot mask inside the answer, rebuilt from f's output.
        parent = parents.get(id(node))
        outermost = not (isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.BitAnd))
        if in_answer and not puzzle.is_vjp and outermost and (_index_eq(node, integral) or (
            isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd)
            and any(_index_eq(n, integral) for n in ast.walk(node))
        )):
            p = probe(node)
            if p is not None and p.kind == "b" and len(p.shape) >= 1:
                for out_k, out in enumerate(puzzle.outs):
                    for arg in puzzle.wrt:
                        full = tuple(out) + tuple(arg.shape)
                        if len(p.shape) != len(full) or any(a not in (1, b) for a, b in zip(p.shape, full)):
                            continue
                        add("fmask", node, functools.partial(_fmask_node, puzzle, answer_fn, out_k, out, arg))

    # f16_cast: a floating intermediate of the answer, assigned or returned, cast to float16.
    if answer_fn is not None:
        for node in ast.walk(answer_fn):
            values: list[ast.expr] = []
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple) and len(target.elts) == len(node.value.elts):
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
                if floating(value) and not isinstance(value, ast.Name):
                    add("f16_cast", value, _f16)  # type: ignore[arg-type]
    found["f16_cast"].sort(key=lambda site: site[0])
    return found


def _index_eq(node: ast.AST, integral: Callable[[ast.AST], bool]) -> bool:
    """`a == b` on index arrays (at least one side holds integers): an identity or one-hot mask."""
    return (
        isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq)
        and (integral(node.left) or integral(node.comparators[0]))
    )


def _fmask_expr(puzzle: Any, answer_fn: ast.FunctionDef | None, out_k: int, out: tuple[int, ...], arg: Any) -> ast.expr:
    """`f(*args)` (output `out_k`) == `arg`, with f's output axes first: shape out + arg.shape."""
    assert answer_fn is not None
    f_name = puzzle.function or puzzle.name
    names = _params(answer_fn)[: len(puzzle.f_args)]
    value: ast.expr = _call(f_name, *(ast.Name(n, ast.Load()) for n in names))
    if len(puzzle.outs) > 1:
        value = ast.Subscript(value, ast.Constant(out_k), ast.Load())
    if arg.shape:
        axes = ast.Tuple([ast.Constant(len(out) + j) for j in range(len(arg.shape))], ast.Load())
        value = _call("np.expand_dims", value, axes)
    return ast.Compare(value, [ast.Eq()], [ast.Name(arg.name, ast.Load())])


_ALL_IF_ANY = '''
def _all_if_any(cond):
    # The mutant's shortcut: one element takes the special path, so every element does.
    if cond.any():
        return np.ones(np.shape(cond), dtype=bool)
    return cond
'''


def _finite_difference_answer(puzzle: Any, answer_fn: ast.FunctionDef | None, h: float) -> str:
    """A whole answer: the central finite-difference Jacobian (or vjp) of the header's f, no autodiff."""
    f_name = puzzle.function or puzzle.name
    names = _params(answer_fn) if answer_fn is not None else [a.name for a in puzzle.args]
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


def mutants(puzzle: Any, reference: str | None = None) -> list[Mutant]:
    """Every mutant of the puzzle's reference answer (the kit's, or the file text `reference`:
    a pack's), in operator order, deduplicated by source."""
    puzzle = _puzzle(puzzle)
    header, answer = split_reference(puzzle.name, reference)
    tree = ast.parse(answer)
    probes = _probe(puzzle, header, tree)
    found = _sites(puzzle, tree, probes)
    answer_fn = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == puzzle.answer_name), None)
    original = header + "\n" + ast.unparse(tree) + "\n"
    seen = {original}
    result: list[Mutant] = []

    def keep(op: str, site: int, detail: str, body: str) -> None:
        source = header + "\n" + body
        try:
            ast.parse(source)
        except SyntaxError:
            return
        if source in seen:
            return
        seen.add(source)
        result.append(Mutant(f"{puzzle.name}:{op}:{site}", puzzle.name, op, site, detail, source))

    for op in OPERATORS:
        if op == "finite_diff":
            for site, h in enumerate(FD_STEPS):
                keep(op, site, f"the answer replaced by a central finite difference of f, h = {h:g}", _finite_difference_answer(puzzle, answer_fn, h))
            continue
        for site, (where, make, detail) in enumerate(found[op]):
            work = copy.deepcopy(tree)
            target = _numbered(work)[where]
            try:
                work = ast.fix_missing_locations(_Wrap({id(target): make}).visit(work))
                if op == "any_branch":
                    work.body[:0] = ast.parse(_ALL_IF_ANY).body
                body = ast.unparse(work) + "\n"
            except Exception:  # noqa: BLE001 - a transform that fails to rebuild is skipped
                continue
            keep(op, site, detail, body)
    return result


# ---------------------------------------------------------------------------------------------
# the independent dense check

TOLERANCE = 1e-6  # |answer - truth| <= TOLERANCE * (1 + |truth|)
EAGER_SUBSET = 400  # inputs tried one by one when the answer does not run under jit(vmap)
CHUNK_ELEMENTS = 4_000_000  # Jacobian entries per vmapped chunk
GROUP_ELEMENTS = 12_000_000  # Jacobian entries per chunk of a group of answers compiled together
GROUP_SIZE = 8  # answers per group: XLA's compile time grows faster than linearly beyond
FAST_COMPILE = {"xla_backend_optimization_level": 0, "xla_llvm_disable_expensive_passes": True}
NEAR = (1e-7, 1e-6, 1e-5, 1e-4, 1e-3)


@dataclasses.dataclass(frozen=True)
class Witness:
    """An input where an answer is wrong."""

    category: str  # which kind of draw found it
    args: tuple[Any, ...]  # every argument, static ones as ints
    reason: str

    def __str__(self) -> str:
        with np.printoptions(precision=17, threshold=40, linewidth=200):
            shown = ", ".join(f"{a!r}" if isinstance(a, int) else np.array2string(np.asarray(a), separator=", ") for a in self.args)
        return f"{self.reason} on a {self.category} draw: args = ({shown})"


@dataclasses.dataclass
class Inputs:
    """A puzzle's dense test set: per non-static argument, one array with the draw index first."""

    puzzle: Any
    values: list[np.ndarray]  # per non-static argument
    categories: list[str]

    def __len__(self) -> int:
        return len(self.categories)

    def dynamic_at(self, k: int) -> tuple[Any, ...]:
        return tuple(v[k] for v in self.values)

    def args_at(self, k: int) -> tuple[Any, ...]:
        """Every argument of draw k as the answer receives it (jax arrays; static ones as ints)."""
        import jax.numpy as jnp

        dynamic = iter(self.dynamic_at(k))
        return tuple(a.static if a.static is not None else jnp.asarray(next(dynamic)) for a in self.puzzle.args)

    def full_args_at(self, k: int) -> tuple[Any, ...]:
        dynamic = iter(self.dynamic_at(k))
        return tuple(a.static if a.static is not None else np.asarray(next(dynamic)) for a in self.puzzle.args)


def _dtype(arg: Any) -> Any:
    return np.int32 if arg.dtype.startswith("int") else np.float64


class _Draws:
    """Draw generators for one puzzle, seeded from its name."""

    def __init__(self, puzzle: Any) -> None:
        self.puzzle = puzzle
        self.rng = np.random.default_rng(zlib.crc32(puzzle.name.encode()))
        self.dynamic = [a for a in puzzle.args if a.static is None]

    # -- one argument, m draws ---------------------------------------------------------------

    def random(self, arg: Any, m: int) -> np.ndarray:
        rng, shape = self.rng, (m, *arg.shape)
        if arg.dtype.startswith("int"):
            return rng.integers(int(arg.low), int(arg.high) + 1, size=shape).astype(np.int32)
        if arg.sampler == "simplex":
            alpha = rng.choice([0.2, 1.0, 5.0], size=(m,) + (1,) * len(arg.shape))
            raw = rng.gamma(np.broadcast_to(alpha, shape), 1.0) + 1e-300
            return np.asarray(raw / raw.sum(axis=-1, keepdims=True))
        return rng.uniform(arg.low, arg.high, size=shape)

    def _grid_points(self, arg: Any) -> np.ndarray:
        lo, hi = math.ceil(arg.low * 2), math.floor(arg.high * 2)
        return np.arange(lo, hi + 1) / 2.0

    def specials(self, arg: Any) -> dict[str, np.ndarray]:
        """Named batches of special values for one argument."""
        rng = self.rng
        out: dict[str, np.ndarray] = {}
        shape = tuple(arg.shape)
        size = int(np.prod(shape, dtype=int))
        if arg.dtype.startswith("int"):
            lo, hi = int(arg.low), int(arg.high)
            values = np.arange(lo, hi + 1)
            reps = max(1, 400 // len(values))
            # every value, everywhere at once ("repeated"), and at one random position
            out["int every value"] = np.repeat(values, reps)[:, None].repeat(max(size, 1), axis=1).reshape((-1, *shape)).astype(np.int32)
            if size > 1:
                base = self.random(arg, len(values) * reps)
                flat = base.reshape(len(base), -1)
                flat[np.arange(len(flat)), rng.integers(0, size, len(flat))] = np.repeat(values, reps)
                out["int each value somewhere"] = base
                few = rng.choice(values, size=(300, 3))
                out["int few distinct"] = few[np.arange(300)[:, None], rng.integers(0, 3, (300, size))].reshape((300, *shape)).astype(np.int32)
            return out
        if arg.sampler == "simplex":
            n = shape[-1]
            lead = shape[:-1]

            def rows(make: Callable[[], np.ndarray], m: int) -> np.ndarray:
                return np.stack([np.stack([make() for _ in range(int(np.prod(lead, dtype=int)))]).reshape((*lead, n)) for _ in range(m)])

            def one_hot() -> np.ndarray:
                v = np.zeros(n)
                v[rng.integers(n)] = 1.0
                return v

            def near_one_hot() -> np.ndarray:
                eps = rng.choice(NEAR) * rng.uniform(0.5, 2)
                v = np.zeros(n)
                k = rng.integers(n)
                if rng.random() < 0.5:
                    v[(k + rng.integers(1, n)) % n] = eps
                else:
                    v[:] = eps / (n - 1)
                v[k] = 1.0 - eps
                return v

            def tie() -> np.ndarray:
                choice = rng.integers(3)
                if choice == 0:
                    return np.full(n, 1.0 / n)
                v = np.zeros(n)
                picks = rng.choice(n, size=2, replace=False)
                if choice == 1:
                    v[picks] = 0.5
                else:
                    v[:] = rng.uniform(0, 1, n)
                    v[picks[1]] = v[picks[0]]
                    v /= v.sum()
                return v

            def near_tie() -> np.ndarray:
                v = tie()
                picks = rng.choice(n, size=2, replace=False)
                d = rng.choice(NEAR) * rng.uniform(0.5, 2) * min(1.0, v[picks].min() * 10 + 1e-3)
                v[picks[0]] += d
                v[picks[1]] = max(v[picks[1]] - d, 0.0)
                return np.asarray(v / v.sum())

            out["one-hot"] = rows(one_hot, 200)
            out["near one-hot"] = rows(near_one_hot, 300)
            out["simplex tie"] = rows(tie, 200)
            out["simplex near tie"] = rows(near_tie, 200)
            return out
        # a uniform floating argument (or a cotangent)
        grid = self._grid_points(arg)
        if len(grid):
            base = rng.choice(grid, size=(400, *shape))
            offsets = rng.choice(NEAR, size=base.shape) * rng.choice([-1.0, 1.0], size=base.shape)
            offsets *= rng.random(base.shape) < 0.7
            out["integers and halves, nearby"] = np.clip(base + offsets, arg.low, arg.high)
            exact = rng.choice(grid, size=(100, *shape))
            out["integers and halves"] = exact
        edges = set(arg.edge_names) | ({"zero entry", "large magnitudes", "small magnitudes"} if arg.cotangent else set())
        m = 400
        if {"large magnitudes", "small magnitudes", "zero entry"} & edges:
            # Up to 1e4, the largest magnitude the checker's accuracy contract covers
            # (docs/checker.md): beyond it, central differences of a function linear in each
            # argument, exact in maths, are off by rounding alone, like cos(x + pi/2) near 0.
            top = 4.0 if "large magnitudes" in edges else math.log10(max(abs(arg.low), abs(arg.high)))
            mags = 10.0 ** rng.uniform(-8.0, top, size=(m, *shape))
            signs = rng.choice([-1.0, 1.0], size=mags.shape) if arg.low < 0 else 1.0
            values = mags * signs
            if "zero entry" in edges and "zero" not in arg.avoid:
                values = np.where(rng.random(values.shape) < 0.3, 0.0, values)
            if "large magnitudes" not in edges:
                values = np.clip(values, arg.low, arg.high)
            out["zeros and magnitudes"] = values
        if arg.low < 0 < arg.high and "zero" not in arg.avoid:
            zeros = self.random(arg, 200)
            flat = zeros.reshape(200, -1)
            for row in flat:
                row[rng.choice(flat.shape[1], size=rng.integers(1, flat.shape[1] + 1), replace=False)] = 0.0
            out["zero entries"] = zeros
        if size > 1:
            near = self.random(arg, 200)
            flat = near.reshape(200, -1)
            for row in flat:
                i, j = rng.choice(flat.shape[1], size=2, replace=False)
                row[j] = row[i] + rng.choice(NEAR) * rng.choice([-1.0, 1.0])
            out["near ties"] = np.clip(near, arg.low, arg.high)
            if "ties" not in arg.avoid:
                tied = self.random(arg, 200)
                flat = tied.reshape(200, -1)
                for row in flat:
                    pool = rng.uniform(arg.low, arg.high, size=rng.integers(1, 3))
                    if "zero entry" in edges and rng.random() < 0.3:
                        pool[0] = 0.0
                    row[:] = rng.choice(pool, size=flat.shape[1])
                out["ties"] = tied
        return out

    # -- the whole test set -----------------------------------------------------------------

    def build(self) -> Inputs:
        rng = self.rng
        batches: list[tuple[str, list[np.ndarray]]] = []

        def with_random(fixed: dict[int, np.ndarray], category: str) -> None:
            m = len(next(iter(fixed.values())))
            values = [fixed[k] if k in fixed else self.random(a, m) for k, a in enumerate(self.dynamic)]
            batches.append((category, values))

        with_random({0: self.random(self.dynamic[0], 1200)}, "uniform")
        per_arg = [self.specials(a) for a in self.dynamic]
        for k, (arg, specials) in enumerate(zip(self.dynamic, per_arg)):
            for name, values in specials.items():
                with_random({k: values}, f"{arg.name}: {name}")
        # every argument special at once
        if len(self.dynamic) > 1:
            m = 500
            columns: list[np.ndarray] = []
            for arg, specials in zip(self.dynamic, per_arg):
                pool = list(specials.values()) + [self.random(arg, m)]
                pick = rng.integers(len(pool), size=m)
                rows = [pool[p][rng.integers(len(pool[p]))] for p in pick]
                columns.append(np.stack(rows).astype(_dtype(arg)))
            batches.append(("all special", columns))
        # arguments equal to one another, or to slices / entries of one another
        floats = [k for k, a in enumerate(self.dynamic) if not a.dtype.startswith("int")]
        for i, j in itertools.permutations(floats, 2):
            a, b = self.dynamic[i], self.dynamic[j]
            if (a.sampler == "simplex") != (b.sampler == "simplex"):
                continue
            if a.sampler == "simplex":
                if a.shape == b.shape:
                    src = self.random(a, 200)
                    with_random({i: src, j: src.copy()}, f"{b.name} = {a.name}")
                continue
            src = self.random(a, 300)
            flat = src.reshape(300, -1)
            size_b = int(np.prod(b.shape, dtype=int))
            if a.shape == b.shape:
                copy_b = src.copy()
            else:
                # a slice of a (consecutive entries) or entries picked from a
                copy_b = np.empty((300, size_b))
                for r in range(300):
                    if rng.random() < 0.5 and flat.shape[1] >= size_b:
                        s = rng.integers(0, flat.shape[1] - size_b + 1)
                        copy_b[r] = flat[r, s : s + size_b]
                    else:
                        copy_b[r] = flat[r, rng.integers(0, flat.shape[1], size_b)]
                copy_b = copy_b.reshape((300, *b.shape))
            if b.low <= min(a.low, a.high) and max(a.low, a.high) <= b.high or (a.low, a.high) == (b.low, b.high):
                with_random({i: src, j: copy_b}, f"{b.name} from {a.name}")
        # interleave the categories, so that every prefix (a chunk, the eager subset) mixes them
        order: list[tuple[int, int]] = []
        sizes = [len(v[0]) for _, v in batches]
        for r in range(max(sizes)):
            order.extend((b, r) for b, n in enumerate(sizes) if r < n)
        stacked = [np.stack([batches[b][1][k][r] for b, r in order]).astype(_dtype(a)) for k, a in enumerate(self.dynamic)]
        categories = [batches[b][0] for b, _ in order]
        keep = self._admissible(stacked)
        return Inputs(self.puzzle, [v[keep] for v in stacked], [c for c, ok in zip(categories, keep) if ok])

    def _admissible(self, values: list[np.ndarray]) -> np.ndarray:
        """Draws where f is differentiable: no avoided zeros or ties, and the puzzle's guard holds."""
        n = len(values[0])
        keep = np.ones(n, dtype=bool)
        for arg, v in zip(self.dynamic, values):
            flat = v.reshape(n, -1)
            if "zero" in arg.avoid:
                keep &= ~(flat == 0).any(axis=1)
            if "ties" in arg.avoid and flat.shape[1] > 1:
                s = np.sort(flat, axis=1)
                keep &= ~(np.diff(s, axis=1) == 0).any(axis=1)
            keep &= np.isfinite(flat).all(axis=1) if flat.dtype.kind == "f" else True
        guard = self.puzzle.guard
        named = {a.name: v for a, v in zip(self.dynamic, values)}
        if guard == "unique_max":
            # tensor_lookup_2d: per channel, the largest masked cell stands apart from the runner-up
            arr, xs, ys = named["arr"], named["x_index"], named["y_index"]
            masked = (xs[:, :, None, None] * ys[:, None, :, None] * arr).reshape(n, -1, arr.shape[-1])
            top2 = np.sort(masked, axis=1)[:, -2:, :]
            keep &= ((top2[:, 1] - top2[:, 0]) > 1e-9 * np.maximum(1.0, np.abs(top2[:, 1]))).all(axis=1)
        elif guard == "asymmetric":
            # each row of k has a unique largest entry, and one entry of each row of v is nearest
            # the target r - g
            v, k, g = named["v"], named["k"], named["g"]
            top2 = np.sort(k, axis=2)[:, :, -2:]
            keep &= ((top2[..., 1] - top2[..., 0]) > 1e-9).all(axis=1)
            r = np.take_along_axis(v, np.argmax(k, axis=2)[..., None], axis=2)[..., 0]
            dist = np.sort((v - (r - g)[..., None]) ** 2, axis=2)
            keep &= ((dist[..., 1] - dist[..., 0]) > 1e-9 * np.maximum(1.0, dist[..., 1])).all(axis=1)
        elif guard is not None:
            raise ValueError(f"{self.puzzle.name}: unknown guard {guard!r}")
        return keep


@functools.lru_cache(maxsize=None)
def _inputs_cached(name: str) -> Inputs:
    return _Draws(_puzzle(name)).build()


def inputs(puzzle: Any) -> Inputs:
    """The puzzle's dense test set (built once per process)."""
    return _inputs_cached(_puzzle(puzzle).name)


def _truth_fn(puzzle: Any) -> Callable[..., list[Any]]:
    """The expected blocks (flat list) of one draw, as a function of the non-static arguments."""
    import jax

    f = puzzle.on_dynamic(puzzle.f)
    if not puzzle.is_vjp:
        jf = jax.jacrev(f, puzzle.dynamic_argnums())
        return lambda *args: jax.tree_util.tree_leaves(jf(*args))
    dyn_f = [a for a in puzzle.f_args if a.static is None]
    wrt = [k for k, a in enumerate(dyn_f) if a.differentiable]

    def cotangents(*args: Any) -> list[Any]:
        *xs, g = args

        def of_floats(*floats: Any) -> Any:
            full = list(xs)
            for k, value in zip(wrt, floats):
                full[k] = value
            return f(*full)

        return list(jax.vjp(of_floats, *(xs[k] for k in wrt))[1](g))

    return cotangents


class _Prover:
    """Per puzzle: the test set, its chunks, and the truth on them (computed once, float64)."""

    def __init__(self, puzzle: Any) -> None:
        import jax

        self.puzzle = puzzle
        self.data = inputs(puzzle)
        self.shapes = [tuple(s) for s in puzzle.jac_shapes()]
        self.per_draw = per_draw = max(1, sum(int(np.prod(s, dtype=int)) for s in self.shapes))
        self.chunk = int(min(512, max(16, CHUNK_ELEMENTS // per_draw)))
        n = len(self.data)
        self.starts = list(range(0, n, self.chunk))
        with jax.enable_x64(True):
            self.truth_jit = jax.jit(jax.vmap(_truth_fn(puzzle)), compiler_options=FAST_COMPILE)
            self._truth: dict[int, list[np.ndarray]] = {}
            self.valid = np.ones(n, dtype=bool)
            for s in self.starts:
                blocks = self.truth(s)
                ok = np.ones(len(blocks[0]), dtype=bool)
                for b in blocks:
                    ok &= np.isfinite(b.reshape(len(b), -1)).all(axis=1)
                self.valid[s : s + self.chunk] = ok[: min(self.chunk, n - s)]

    def chunk_values(self, start: int) -> list[np.ndarray]:
        """Chunk `start` of every non-static argument, padded with its first draw to full size."""
        out = []
        for v in self.data.values:
            part = v[start : start + self.chunk]
            if len(part) < self.chunk:
                part = np.concatenate([part, np.repeat(part[:1], self.chunk - len(part), axis=0)])
            out.append(part)
        return out

    def truth(self, start: int) -> list[np.ndarray]:
        """The expected blocks on chunk `start` (float64 values; kept compact in memory)."""
        if start not in self._truth:
            self._truth[start] = [_compact(np.asarray(b, dtype=np.float64)) for b in self.truth_jit(*self.chunk_values(start))]
        return [b.astype(np.float64) for b in self._truth[start]]


def _compact(block: np.ndarray) -> np.ndarray:
    """The block in the smallest dtype that holds its values exactly (int8 for a 0/1 Jacobian)."""
    for dtype in (np.int8, np.float32):
        with np.errstate(invalid="ignore", over="ignore"):
            small = block.astype(dtype)
        if np.array_equal(small.astype(np.float64), block):
            return small
    return block


@functools.lru_cache(maxsize=None)
def _prover(name: str) -> _Prover:
    return _Prover(_puzzle(name))


def _load_answer(puzzle: Any, path: Path) -> Callable[..., Any]:
    spec = importlib.util.spec_from_file_location(f"_mutation_answer_{abs(hash(str(path)))}_{id(path)}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fn = getattr(module, puzzle.answer_name)
    return fn  # type: ignore[no-any-return]


def _compare(blocks: list[Any], truth: list[np.ndarray], batched: bool) -> tuple[int, str] | None:
    """(draw within the chunk, reason) of the first wrong draw, or None. `blocks` from the answer."""
    if len(blocks) != len(truth):
        return 0, f"returns {len(blocks)} blocks, expected {len(truth)}"
    first: tuple[int, str] | None = None
    for k, (got, want) in enumerate(zip(blocks, truth)):
        got = np.asarray(got)
        if got.shape != want.shape:
            return 0, f"block {k} has shape {got.shape[1:] if batched else got.shape}, expected {want.shape[1:] if batched else want.shape}"
        if got.dtype.kind not in "biuf":
            return 0, f"block {k} holds {got.dtype} values"
        got = got.astype(np.float64)
        with np.errstate(invalid="ignore", over="ignore"):
            bad = ~(np.abs(got - want) <= TOLERANCE * (1.0 + np.abs(want)))
        if bad.any():
            where = np.argwhere(bad)[0]
            d = int(where[0]) if batched else 0
            if first is None or d < first[0]:
                entry = tuple(int(i) for i in where[1:]) if batched else tuple(int(i) for i in where)
                first = (d, f"block {k} entry {entry}: {got[tuple(where)]!r}, expected {want[tuple(where)]!r}")
    return first


def prove_wrong(puzzle: Any, path: str | Path) -> Witness | None:
    """An input where the answer in `path` is wrong for `puzzle`, or None if it is right on every
    input of the dense test set (or of the eager subset, for an answer jit(vmap) cannot run)."""
    return prove_many(puzzle, [path])[0]


def prove_many(puzzle: Any, paths: Sequence[str | Path], group_size: int = GROUP_SIZE) -> list[Witness | None]:
    """`prove_wrong` for several answer files of one puzzle. Those that run under jit(vmap) are
    compiled together, up to `group_size` at a time (one XLA compilation instead of one each:
    compiling, not running, is what a small answer costs; a big one, such as a finite
    difference, is better alone); the others run eagerly, one draw at a time."""
    import jax

    puzzle = _puzzle(puzzle)
    prover = _prover(puzzle.name)
    results: list[Witness | None] = [None] * len(paths)
    traced: list[tuple[int, Callable[..., Any]]] = []
    eager: list[tuple[int, Callable[..., Any]]] = []
    with jax.enable_x64(True):
        first = prover.chunk_values(0)
        for k, path in enumerate(paths):
            try:
                answer = _load_answer(puzzle, Path(path))
            except Exception as exc:  # noqa: BLE001
                results[k] = Witness("import", (), f"the file does not import: {type(exc).__name__}: {exc}")
                continue
            target = puzzle.on_dynamic(answer)
            try:
                jax.jit(jax.vmap(target)).trace(*first)  # fails on Python control flow over values
            except Exception:  # noqa: BLE001 - run it eagerly instead
                eager.append((k, target))
            else:
                traced.append((k, target))
        size = max(1, min(group_size, GROUP_ELEMENTS // (prover.chunk * prover.per_draw)))
        for g in range(0, len(traced), size):
            group = traced[g : g + size]
            try:
                found = _prove_group(prover, [t for _, t in group])
            except Exception:  # noqa: BLE001 - one member breaks the group: prove them one by one
                found = []
                for _, target in group:
                    try:
                        found.extend(_prove_group(prover, [target]))
                    except Exception as exc:  # noqa: BLE001
                        d = 0
                        found.append(Witness(prover.data.categories[d], prover.data.full_args_at(d), f"raises {type(exc).__name__}: {str(exc)[:200]}"))
            for (k, _), witness in zip(group, found):
                results[k] = witness
        for k, target in eager:
            results[k] = _prove_eager(prover, target)
    return results


def _prove_group(prover: "_Prover", targets: list[Callable[..., Any]]) -> list[Witness | None]:
    """Run every target on every chunk (one compiled function for the lot), until each is proven
    wrong or the chunks run out."""
    import jax

    data = prover.data
    fn = jax.jit(lambda *args: [jax.vmap(t)(*args) for t in targets], compiler_options=FAST_COMPILE)
    results: list[Witness | None] = [None] * len(targets)
    pending = set(range(len(targets)))
    for start in prover.starts:
        outs = fn(*prover.chunk_values(start))
        truth = prover.truth(start)
        n = min(prover.chunk, len(data) - start)
        valid = prover.valid[start : start + n]
        if not valid.any():
            continue
        rows = np.flatnonzero(valid)
        for i in sorted(pending):
            blocks = [np.asarray(b)[:n][valid] for b in jax.tree_util.tree_leaves(outs[i])]
            wrong = _compare(blocks, [t[:n][valid] for t in truth], batched=True)
            if wrong is not None:
                d = start + int(rows[wrong[0]])
                results[i] = Witness(data.categories[d], data.full_args_at(d), wrong[1])
                pending.discard(i)
        if not pending:
            break
    return results


def _prove_eager(prover: "_Prover", target: Callable[..., Any]) -> Witness | None:
    """Call the answer on one draw at a time, on the first EAGER_SUBSET valid draws (the
    categories interleave, so these cover every kind of draw)."""
    import jax
    import jax.numpy as jnp

    data = prover.data
    tried = 0
    for start in prover.starts:
        truth = prover.truth(start)
        for r in range(min(prover.chunk, len(data) - start)):
            d = start + r
            if not prover.valid[d]:
                continue
            tried += 1
            if tried > EAGER_SUBSET:
                return None
            args = [jnp.asarray(v) for v in data.dynamic_at(d)]
            try:
                blocks = jax.tree_util.tree_leaves(target(*args))
            except Exception as exc:  # noqa: BLE001
                return Witness(data.categories[d], data.full_args_at(d), f"raises {type(exc).__name__}: {str(exc)[:200]}")
            wrong = _compare(blocks, [t[r] for t in truth], batched=False)
            if wrong is not None:
                return Witness(data.categories[d], data.full_args_at(d), wrong[1])
    return None


def write(mutant: Mutant, folder: Path) -> Path:
    """Write the mutant as `<folder>/<puzzle>.py`; returns the path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{mutant.puzzle}.py"
    path.write_text(mutant.source, encoding="utf-8")
    return path


def main(argv: Sequence[str] | None = None) -> int:  # pragma: no cover - a debugging aid
    """`python3 -m checker.authoring._mutation PUZZLE`: list the mutants of one puzzle."""
    import tempfile

    args = list(sys.argv[1:] if argv is None else argv)
    for name in args:
        with tempfile.TemporaryDirectory() as tmp:
            found = mutants(name)
            proofs = prove_many(name, [write(m, Path(tmp) / str(k)) for k, m in enumerate(found)])
            for m, witness in zip(found, proofs):
                print(f"{m.id:45s} {'WRONG' if witness else 'equiv'}  {m.detail}")
                if witness:
                    print(f"    {witness}"[:300])
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
