"""Probing a reference answer: the shape and dtype of every expression of it, on one input."""

from __future__ import annotations

import ast
import copy
import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np

from checker.engine._catalog import Puzzle


def numbered(tree: ast.AST) -> list[ast.AST]:
    """Every node in a deterministic order (the same for a tree and its deep copy)."""
    return list(ast.walk(tree))


def parents_of(tree: ast.AST) -> dict[int, ast.AST]:
    return {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def in_annotation(node: ast.AST, parents: dict[int, ast.AST]) -> bool:
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


def enclosing_function(node: ast.AST, parents: dict[int, ast.AST]) -> ast.FunctionDef | None:
    parent = parents.get(id(node))
    while parent is not None:
        if isinstance(parent, ast.FunctionDef):
            return parent
        parent = parents.get(id(parent))
    return None


_PROBED = (ast.Compare, ast.BinOp, ast.BoolOp, ast.UnaryOp, ast.Call, ast.Name, ast.Subscript, ast.Attribute, ast.IfExp,
           ast.Constant)


class Wrap(ast.NodeTransformer):
    """Replace chosen nodes (by identity) with `make(node)`, children first."""

    def __init__(self, chosen: dict[int, Callable[[ast.AST], ast.AST]]) -> None:
        self.chosen = chosen

    def visit(self, node: ast.AST) -> Any:
        make = self.chosen.get(id(node))
        node = self.generic_visit(node)
        return make(node) if make is not None else node


def call(func: str, *args: ast.expr, **kwargs: ast.expr) -> ast.Call:
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


def probe(puzzle: Puzzle, header: str, tree: ast.Module) -> dict[int, Probe]:
    """Run the answer once (eagerly, float64) with every expression recorded: walk index -> Probe."""
    import jax

    from checker.authoring.mutation._draws import inputs

    work = copy.deepcopy(tree)
    nodes = numbered(work)
    parents = parents_of(work)
    chosen: dict[int, Callable[[ast.AST], ast.AST]] = {}
    for k, node in enumerate(nodes):
        if not isinstance(node, _PROBED) or in_annotation(node, parents):
            continue
        if getattr(node, "ctx", ast.Load()).__class__ is not ast.Load:
            continue
        chosen[id(node)] = lambda n, k=k: call("__probe__", ast.Constant(k), n)  # type: ignore[misc]
    work = ast.fix_missing_locations(Wrap(chosen).visit(work))
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

