"""The original challenge's badge: an answer that is one line of at most 80 columns.

The Autodiff Puzzles notebook asked for every Jacobian in one line of code under 80 columns. The
badge is a fact about the answer file, read from its source with `ast` (nothing is run, nothing
imports JAX); it is shown beside a passing verdict, never used to judge one. The rule, as
docs/solving.md states it, applies to the part of the file below the marker line:

- the answer function (`jac`, or `vjp`) has no decorators, and its body, apart from an optional
  docstring, is a single `return` with a value, written on one physical line that is at most
  `MAX_COLUMNS` characters long, counted from the start of the line to the end of the statement
  (indentation included, a trailing comment not);
- every other statement is an import, or an assignment (`Is = np.arange(10)`) on one line of at
  most `MAX_COLUMNS` characters with no `lambda` in it: constants like the notebook's index arrays
  are allowed, helpers that compute anything from the arguments (a `def`, a `class`, a `lambda`)
  are not, nor are loops, conditionals or other code;
- the answer must parse; a file that does not parse gets no badge.
"""

from __future__ import annotations

import ast

from checker.engine._stubs import answer_part

MAX_COLUMNS = 80
SYMBOL = "★"


def _columns(lines: list[str], node: ast.stmt) -> int | None:
    """Width of a one-line statement, from the line's start to the statement's end; None if it spans lines."""
    if node.end_lineno != node.lineno or node.end_col_offset is None:
        return None
    line = lines[node.lineno - 1]
    # ast offsets count UTF-8 bytes; columns count characters.
    return len(line.encode()[: node.end_col_offset].decode(errors="replace"))


def _is_docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def _allowed_beside(lines: list[str], node: ast.stmt) -> bool:
    """A statement that may sit beside the answer function: an import, or a one-line constant."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return True
    if isinstance(node, (ast.Assign, ast.AnnAssign)):
        width = _columns(lines, node)
        has_lambda = any(isinstance(n, ast.Lambda) for n in ast.walk(node))
        return width is not None and width <= MAX_COLUMNS and not has_lambda
    return _is_docstring(node)


def one_line_width(text: str, answer_name: str = "jac") -> int | None:
    """The width of the answer's one `return` line when the answer in `text` meets the rule, else None.

    Args:
        text: the whole answer file (the part below `MARKER` is read; all of it without the marker).
        answer_name: the function the learner writes, `jac` or `vjp`.
    """
    answer = answer_part(text)
    try:
        tree = ast.parse(answer)
    except (SyntaxError, ValueError):
        return None
    lines = answer.splitlines()
    functions = [
        n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == answer_name
    ]
    if len(functions) != 1 or not isinstance(functions[0], ast.FunctionDef):
        return None
    function = functions[0]
    if function.decorator_list:
        return None
    if any(node is not function and not _allowed_beside(lines, node) for node in tree.body):
        return None
    body = function.body[1:] if _is_docstring(function.body[0]) else function.body
    if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
        return None
    width = _columns(lines, body[0])
    return width if width is not None and width <= MAX_COLUMNS else None


def label(width: int) -> str:
    """What the badge says, e.g. `★ one line (33 columns)`."""
    return f"{SYMBOL} one line ({width} columns)"
