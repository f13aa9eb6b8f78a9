"""Notebooks: a chapter as a Jupyter notebook, and `check`, the inline check its cells call.

The notebook is nbformat v4 JSON, written with `nbformat` when it is installed (it validates)
and as plain JSON otherwise. Each puzzle gets a statement cell, `f`, the answer cell and a check
cell `checker.check("cumsum", jac)`, whose value draws the verdict in the notebook. The answer
cell holds the learner's own answer (the code below the marker line of their file) when there is
one, else the stub.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from rich.console import Console, ConsoleOptions, RenderResult

from checker.engine._catalog import Chapter, Puzzle, chapters
from checker.engine._settings import DEFAULT_SEED
from checker.engine._verdict import Verdict

_INSTALL = """\
# On Colab (or any fresh kernel), the kit is installed first: {note}
import importlib, importlib.metadata, subprocess, sys
try:
    importlib.metadata.version("jacpuzzles")
except importlib.metadata.PackageNotFoundError:
    subprocess.check_call([sys.executable, "-m", "pip", "install", "-q", {requirement!r}])
    importlib.invalidate_caches()  # this kernel looked at site-packages before the kit was in it
"""

_SETUP = """\
import jax

# Float64, as `jacpuzzles check` and the grader run an answer file: a constant a cell computes
# (np.sqrt(2 / np.pi)) is then float64 here too, and the verdict the same everywhere.
jax.config.update("jax_enable_x64", True)
import jax.numpy as np
from jaxtyping import Array, Int, Shaped

import checker"""

_PACK = """
checker.use_packs([{folder!r}])  # this chapter's puzzle pack"""

_NOTE = """\
Fill in each `{answer}` cell and run the check cell below it: it shows **PASS**, or what is wrong
and the input that shows it, with the expected Jacobian and yours side by side. `np` is
`jax.numpy`. The checker differentiates its own copy of each `f`: editing `f` changes nothing.
Answers written in the original notebook's per-entry form also work: define `fb_<name>(x[, y])`
returning `(f, dx[, dy])` and check it with `checker.check("<name>", fb_<name>)`."""

_OWN = """

These are **your own variants** of the puzzles (from your assignment workspace): each `f` below
is yours, and each check cell checks your answer against your variant, not the published puzzle."""


class Checked:
    """What `check` returns: the verdict, drawn for a notebook's page (HTML with SVG heatmaps,
    `_notebook_view`) and for a terminal (rich)."""

    def __init__(self, verdict: Verdict) -> None:
        self.verdict = verdict

    @property
    def passed(self) -> bool:
        """Whether the answer is right on every draw."""
        return self.verdict.passed

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from checker.engine._report import VerdictView

        yield VerdictView(self.verdict)

    def __repr__(self) -> str:
        return f"{self.verdict.puzzle}: {self.verdict.status.value.upper()} - {self.verdict.message}"

    def _repr_html_(self) -> str:
        from checker.learner._notebook_view import html

        return html(self.verdict)


def check(
    name: str, jac: Callable[..., Any], *, seed: int = DEFAULT_SEED, variant: Mapping[str, Any] | None = None
) -> Checked:
    """Check an answer function for puzzle `name` in a notebook or script, without raising on a
    wrong answer.

    Args:
        name: the puzzle, e.g. `"cumsum"`.
        jac: your `jac` (or `vjp` for a backward-pass puzzle), or a per-entry `fb_<name>`.
        seed: seed of the input draws.
        variant: your variant's choices, e.g. `{"direction": "right", "scale": 25}` (a notebook
            written in an assignment workspace fills it in); None for the published puzzle.

    Returns:
        a `Checked`: `.passed`, `.verdict` (a `Verdict`); a notebook draws the report.
    """
    from checker.engine._engine import check_answer

    return Checked(check_answer(name, jac, seed, variant=variant))


def install_requirement(given: str | None = None) -> tuple[str, str]:
    """What the set-up cell gives pip, and a note on where it comes from: `given` (a URL, a
    `git+` URL or a wheel's path, from `notebook --install-from`), else where pip installed this
    kit from (its `direct_url.json`: a git commit, a URL, a local folder or wheel), else this
    source tree; the kit is not on the package index, so `jacpuzzles` alone cannot be installed."""
    import importlib.metadata

    if given is not None:
        path = Path(given).expanduser()
        target = path.resolve().as_uri() if "://" not in given and path.exists() else given
        return f"jacpuzzles @ {target}", "from the source the notebook's author gave (`notebook --install-from`)"
    try:
        text = importlib.metadata.distribution("jacpuzzles").read_text("direct_url.json")
    except importlib.metadata.PackageNotFoundError:
        text = None
    try:
        record = json.loads(text) if text else {}
    except ValueError:
        record = {}
    url = record.get("url") if isinstance(record, dict) else None
    if isinstance(url, str) and url:
        vcs = record.get("vcs_info")
        if isinstance(vcs, dict) and isinstance(vcs.get("vcs"), str):
            commit = vcs.get("commit_id") or vcs.get("requested_revision")
            return f"jacpuzzles @ {vcs['vcs']}+{url}" + (
                f"@{commit}" if commit else ""
            ), "the same kit, from where it was installed"
        if not url.startswith("file:"):
            return f"jacpuzzles @ {url}", "the same kit, from where it was installed"
        return f"jacpuzzles @ {url}", _LOCAL
    source = Path(__file__).resolve().parents[2]
    if (source / "pyproject.toml").is_file():  # a source tree, installed without a record
        return f"jacpuzzles @ {source.as_uri()}", _LOCAL
    return "jacpuzzles", "from the package index (give `notebook --install-from URL` for another source)"


_LOCAL = (
    "from a folder or file on the machine that wrote this notebook (for Colab, write it with `jacpuzzles notebook "
    "--install-from URL_OR_WHEEL`)"
)


def _markdown(text: str) -> dict[str, Any]:
    return {"cell_type": "markdown", "metadata": {}, "source": text}


def _code(text: str) -> dict[str, Any]:
    return {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": text}


def stub_cell(puzzle: Puzzle) -> str:
    """The answer cell as generated: the signature and `raise NotImplementedError`."""
    what = "backward pass" if puzzle.is_vjp else "Jacobian"
    return f"{puzzle.jac_signature()}\n    raise NotImplementedError  # replace with your {what}"


def check_cell(puzzle: Puzzle, answer: str | None = None) -> str:
    """The cell that checks the answer above it (`answer`: that cell's code, None for the stub),
    against `puzzle`'s own variant."""
    variant = f", variant={dict(puzzle.variant)!r}" if puzzle.variant else ""
    return f'checker.check("{puzzle.name}", {_checked_name(puzzle, answer)}{variant})'


def _checked_name(puzzle: Puzzle, answer: str | None) -> str:
    """The function the check cell passes: `jac`, or `fb_<name>` for an answer written only in
    the per-entry form (checking `jac` there would check whatever `jac` an earlier cell left)."""
    from checker.engine._forms import fb_name

    if answer is None:
        return puzzle.answer_name
    try:
        tree = ast.parse(answer)
    except SyntaxError:
        return puzzle.answer_name  # running the cell shows the learner the syntax error
    defined = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not _only_raises(node):
            defined.add(node.name)
        elif isinstance(node, ast.Assign):
            defined.update(t.id for t in node.targets if isinstance(t, ast.Name))
    per_entry = fb_name(puzzle)
    return per_entry if per_entry in defined and puzzle.answer_name not in defined else puzzle.answer_name


def _only_raises(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    # The stub's own `jac`, left above a per-entry answer: not an answer.
    return len(node.body) == 1 and isinstance(node.body[0], ast.Raise)


def chapter_notebook(
    chapter: Chapter, answers: Mapping[str, str] | None = None, install: tuple[str, str] | None = None
) -> dict[str, Any]:
    """The chapter as an nbformat v4 notebook (a JSON-ready dict).

    Args:
        chapter: the chapter.
        answers: puzzle name -> the learner's answer code, put in place of the stub.
        install: the set-up cell's pip requirement and its note (default: `install_requirement()`).
    """
    answers = answers or {}
    requirement, note = install if install is not None else install_requirement()
    names = sorted({p.answer_name for p in chapter.puzzles})
    own = _OWN if any(p.variant for p in chapter.puzzles) else ""
    cells = [
        _markdown(f"# {chapter.title}\n\n{chapter.summary}\n\n" + _NOTE.format(answer="` or `".join(names)) + own),
        _code(
            _INSTALL.format(note=note, requirement=requirement)
            + _SETUP
            + (_PACK.format(folder=str(chapter.pack)) if chapter.pack is not None else "")
        ),
    ]
    for number, p in enumerate(chapter.puzzles, 1):
        shapes = ", ".join(str(s) for s in p.jac_shapes())
        what = "Cotangent" if p.is_vjp else "Jacobian"
        cells.append(
            _markdown(
                f"## {number}. {p.title} (`{p.name}`)\n\n{p.statement}\n\n"
                f"{what} shape{'s' if len(p.jac_shapes()) > 1 else ''}: {shapes} · {p.points} "
                f"point{'' if p.points == 1 else 's'}"
            )
        )
        cells.append(_code(p.code.rstrip()))
        answer = answers.get(p.name)
        cells.append(_code(stub_cell(p) if answer is None else answer))
        cells.append(_code(check_cell(p, answer)))
    return {
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def learner_answers(chapter: Chapter, root: Path) -> dict[str, str]:
    """The learner's answers under `root` to `chapter`'s puzzles: name -> the code below the
    marker line of their file. Puzzles with no file, an untouched stub, or several files
    (`check` says which to keep) are left out: their cell stays the stub."""
    from checker.engine._stubs import answer_part, find_answers, stub

    found = find_answers(root) if root.is_dir() else {}
    answers = {}
    for p in chapter.puzzles:
        paths = found.get(p.name, [])
        if len(paths) != 1:
            continue
        try:
            text = paths[0].read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        code = answer_part(text).strip("\n")
        if text != stub(p) and code.strip() and code != stub_cell(p):
            answers[p.name] = code
    return answers


def chapter_named(name: str) -> Chapter | None:
    """The chapter called `name`, or None."""
    return next((c for c in chapters() if c.name == name), None)


def write(notebook: dict[str, Any], path: Path) -> None:
    """Write `notebook` to `path`: through nbformat (validated, cell ids added) when installed."""
    try:
        import nbformat
    except ImportError:
        for k, cell in enumerate(notebook["cells"]):
            cell.setdefault("id", f"cell-{k}")
        path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        return
    node = nbformat.from_dict(notebook)  # type: ignore[no-untyped-call]
    for k, cell in enumerate(node.cells):
        cell.setdefault("id", f"cell-{k}")
    nbformat.validate(node)
    nbformat.write(node, str(path))  # type: ignore[no-untyped-call]
