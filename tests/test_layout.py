"""The package's layout: one subpackage per subsystem, imports pointing one way.

    cli -> frontends -> authoring -> learner, grading -> engine

Every import of a `checker` module by another (at module level or inside a function) is read
from the source: none may point up the list, the learner's loop and grading may not import each
other, and no two modules may import each other through any chain (a cycle).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import REPO

PACKAGE = REPO / "checker"
# A subsystem may import its own modules and those of lower levels only.
LEVELS = {"engine": 0, "learner": 1, "grading": 1, "authoring": 2, "frontends": 3, "cli": 4}


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(REPO).with_suffix("")
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imports(path: Path) -> set[str]:
    """The `checker` modules `path` imports, by their full names."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.level == 0
            and node.module.split(".")[0] == "checker"
        ):
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                found.add(full if full in MODULES else node.module)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "checker"}
    return {name for name in found if name in MODULES}


GRAPH = {name: _imports(path) - {name} for name, path in MODULES.items()}


def _subsystem(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 and parts[1] in LEVELS else None


def test_every_module_lives_in_a_subsystem() -> None:
    loose = [
        m
        for m in MODULES
        if m.count(".") == 1
        and m not in ("checker.__main__",)
        and _subsystem(m) is None
        and m.split(".")[1] not in LEVELS
    ]
    assert loose == [], f"modules outside the subsystems' subpackages: {loose}"
    assert set(LEVELS) == {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _subsystem(m)))
def test_imports_point_down_the_subsystems(module: str) -> None:
    here = _subsystem(module)
    assert here is not None
    wrong = []
    for target in sorted(GRAPH[module]):
        there = _subsystem(target)
        if there is None or there == here:
            continue
        if LEVELS[there] >= LEVELS[here]:
            wrong.append(f"{target} ({there}, level {LEVELS[there]})")
    assert wrong == [], f"{module} ({here}, level {LEVELS[here]}) imports upward or sideways: {wrong}"


def test_no_import_cycle() -> None:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in GRAPH[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(GRAPH):
        if node not in index:
            visit(node)
    assert cycles == [], f"modules importing each other through a chain: {cycles}"


def test_the_check_can_fail() -> None:
    """The graph is read right: known edges are in it."""
    assert "checker.engine._catalog" in GRAPH["checker.engine._variants"]
    assert "checker.grading._worker" in GRAPH["checker.grading._sandbox"]
