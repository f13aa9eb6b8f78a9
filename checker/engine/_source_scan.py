"""Answers that let autodiff or the kit do the work, found in the source before an answer runs.

The puzzles ask for Jacobians computed by hand, so an answer may not use JAX's (or TensorFlow's,
or PyTorch's) automatic differentiation, nor import the checker or the reference answers.
`scan` reads an answer file's syntax tree (the file is not run). It follows import aliases
(`import jax as J; J.jacfwd`, `from jax import grad as g`), `getattr` and `__import__` with
constant strings, and `sys.modules[...]`, so that a learner's own variable called `grad` or
function called `vjp` is never mistaken for JAX's. What a scan cannot read
(`getattr(jax, "jac" + "fwd")`) the runtime guards refuse (`_integrity`).
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterable
from dataclasses import dataclass

# JAX's transformations that differentiate; each is forbidden under `jax.` and `jax._src.api.`.
JAX_AUTODIFF = (
    "jacfwd",
    "jacrev",
    "jacobian",
    "grad",
    "value_and_grad",
    "vjp",
    "jvp",
    "linearize",
    "hessian",
    "linear_transpose",
)
# Qualified names an answer may not reach: each one, and everything under it.
AUTODIFF = frozenset({
    *(f"jax.{n}" for n in JAX_AUTODIFF),
    *(f"jax._src.api.{n}" for n in JAX_AUTODIFF),
    "jax.experimental.jet",
    "jax.interpreters.ad",
    "jax._src.interpreters.ad",
    "tensorflow.GradientTape",
    "tensorflow.gradients",
    "tensorflow.autodiff",
    "tensorflow.compat.v1.gradients",
    "tensorflow.compat.v2.GradientTape",
    "torch.autograd",
    "torch.func",
    "functorch",
})
KIT = ("checker", "solutions")  # top-level packages an answer may not import
_IMPORTERS = ("builtins.__import__", "importlib.import_module", "importlib.__import__")


@dataclass(frozen=True)
class Finding:
    """One use of something forbidden in an answer's source: what it resolves to, and where."""

    line: int
    name: str  # the qualified name reached: "jax.jacfwd", "checker.engine._engine"
    kind: str  # "autodiff" or "kit"

    def describe(self) -> str:
        """`jax.jacfwd (line 23)`."""
        return f"{self.name} (line {self.line})"


@functools.lru_cache(maxsize=8192)
def category(name: str) -> str | None:
    """Whether a qualified name is autodiff (`"autodiff"`), the kit (`"kit"`), or allowed (None)."""
    if any(name == a or name.startswith(a + ".") for a in AUTODIFF):
        return "autodiff"
    if name.partition(".")[0] in KIT:
        return "kit"
    return None


def scan(source: str) -> list[Finding]:
    """Every use of autodiff or of the kit in `source`, in line order (first use of each name).

    A file that does not parse gives no findings: running it reports the syntax error.
    """
    return list(_scan(source))


@functools.lru_cache(maxsize=4096)  # a class hands in many identical files (untouched stubs, copies)
def _scan(source: str) -> tuple[Finding, ...]:
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ()
    scanner = _Scanner(tree)
    try:
        scanner.visit(tree)
    except RecursionError:  # absurdly deep expressions: the runtime guards still apply
        pass
    return tuple(scanner.findings())


def describe(findings: Iterable[Finding], path: str) -> str:
    """The diagnosis of an answer file with findings: what it uses, where, and what to do."""
    found = list(findings)
    autodiff = [f.describe() for f in found if f.kind == "autodiff"]
    kit = [f.describe() for f in found if f.kind == "kit"]
    parts = []
    if autodiff:
        parts.append(
            f"{path} uses {', '.join(autodiff)}: answers must compute the Jacobian by hand; autodiff is not allowed"
        )
    if kit:
        parts.append(
            f"{path} imports {', '.join(kit)}: answers may not use the checker's code or the reference answers"
        )
    return "; ".join(parts) + ". It was not run: remove that code and resubmit"


class _Scanner(ast.NodeVisitor):
    """Resolves names through the file's imports and records the forbidden ones."""

    def __init__(self, tree: ast.AST) -> None:
        self.bindings: dict[str, str] = {}  # local name -> qualified name it was imported as
        self.found: dict[str, Finding] = {}
        nodes = list(ast.walk(tree))
        stored = {n.id for n in nodes if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
        stored |= {n.name for n in nodes if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
        stored |= {
            a.arg
            for n in nodes
            if isinstance(n, ast.arguments)
            for a in (*n.posonlyargs, *n.args, *n.kwonlyargs, n.vararg, n.kwarg)
            if a is not None
        }
        self.stored = stored
        for node in nodes:  # imports bind names wherever they are (flow-insensitive)
            if isinstance(node, ast.Import):
                for alias in node.names:
                    self.bindings[alias.asname or alias.name.partition(".")[0]] = (
                        alias.name if alias.asname else alias.name.partition(".")[0]
                    )
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                for alias in node.names:
                    if alias.name == "*":
                        self._star(node.module)
                    else:
                        self.bindings[alias.asname or alias.name] = f"{node.module}.{alias.name}"

    def _star(self, module: str) -> None:
        """`from jax import *`: the forbidden names it brings, unless the file defines its own."""
        for short in (*JAX_AUTODIFF, "GradientTape", "gradients", "autograd", "func", "jet"):
            if short not in self.stored and category(f"{module}.{short}"):
                self.bindings[short] = f"{module}.{short}"

    def findings(self) -> list[Finding]:
        found = sorted(self.found.values(), key=lambda f: f.line)  # stable: in reading order
        # `jax.experimental.jet.jet` also reaches `jax.experimental.jet` on that line: keep the longer.
        return [
            f
            for f in found
            if not any(g is not f and g.line == f.line and g.name.startswith(f.name + ".") for g in found)
        ]

    def _record(self, node: ast.AST, name: str) -> None:
        kind = category(name)
        if kind is not None and name not in self.found:
            self.found[name] = Finding(getattr(node, "lineno", 0), name, kind)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._record(node, alias.name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level or not node.module:
            return
        if category(node.module):
            self._record(node, node.module)
            return
        for alias in node.names:
            if alias.name != "*":
                self._record(node, f"{node.module}.{alias.name}")

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load) and node.id in self.bindings:
            self._record(node, self.bindings[node.id])

    def visit_Attribute(self, node: ast.Attribute) -> None:
        name = self._qualify(node)
        if name is not None and category(name):
            self._record(node, name)
        else:
            self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        name = self._qualify(node)
        if name is not None:
            self._record(node, name)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        name = self._qualify(node)
        if name is not None:
            self._record(node, name)
        func = self._qualify(node.func)
        if func in _IMPORTERS and node.args:
            target = _constant(node.args[0])
            if target is not None:
                self._record(node, target)
        self.generic_visit(node)

    def _qualify(self, node: ast.AST) -> str | None:
        """The qualified name an expression evaluates to, when the file's text makes it certain."""
        if isinstance(node, ast.Name):
            if node.id in self.bindings:
                return self.bindings[node.id]
            if node.id in ("__import__", "getattr", "vars") and node.id not in self.stored:
                return f"builtins.{node.id}"
            return None
        if isinstance(node, ast.Attribute):
            base = self._qualify(node.value)
            return f"{base}.{node.attr}" if base is not None else None
        if isinstance(node, ast.Subscript):
            key = _constant(node.slice)
            base = self._qualify(node.value)
            if key is None or base is None:
                return None
            if base == "sys.modules":
                return key
            if base.endswith(".__dict__"):
                return f"{base.removesuffix('.__dict__')}.{key}"
            return None
        if isinstance(node, ast.Call):
            func = self._qualify(node.func)
            first = node.args[0] if node.args else None
            if func in _IMPORTERS and first is not None:
                module = _constant(first)
                fromlist = len(node.args) > 3 or any(k.arg == "fromlist" for k in node.keywords)
                if module is None:
                    return None
                return module if func == "importlib.import_module" or fromlist else module.partition(".")[0]
            if func in ("sys.modules.get", "sys.modules.__getitem__", "sys.modules.pop") and first is not None:
                return _constant(first)
            if func == "builtins.getattr" and len(node.args) >= 2:
                base, attr = self._qualify(node.args[0]), _constant(node.args[1])
                return f"{base}.{attr}" if base is not None and attr is not None else None
            if func == "builtins.vars" and first is not None:
                base = self._qualify(first)
                return f"{base}.__dict__" if base is not None else None
        return None


def _constant(node: ast.AST) -> str | None:
    """A string expression's value when it is built from literals only (`'ja' + 'x'`), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _constant(node.left), _constant(node.right)
        return left + right if left is not None and right is not None else None
    if isinstance(node, ast.JoinedStr):
        parts = [_constant(v) for v in node.values]
        return "".join(p for p in parts if p is not None) if all(p is not None for p in parts) else None
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join"
            and len(node.args) == 1 and isinstance(node.args[0], (ast.List, ast.Tuple))):
        sep = _constant(node.func.value)
        items = [_constant(e) for e in node.args[0].elts]
        if sep is not None and all(i is not None for i in items):
            return sep.join(i for i in items if i is not None)
    return None
