"""`jacpuzzles notebook`: a chapter as a notebook, executed end to end with the reference answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checker import Status, check
from checker._catalog import puzzle_named
from checker._notebook import check_cell, stub_cell
from checker._stubs import answer_part, relative_path
from tests.conftest import SOLUTIONS
from tests.test_cli import jacpuzzles

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")


def _write(tmp_path: Path, chapter: str = "autodiff") -> Path:
    out = tmp_path / f"{chapter}.ipynb"
    result = jacpuzzles("notebook", str(out), "--chapter", chapter)
    assert result.returncode == 0, result.stderr
    assert f"to {out}" in " ".join(result.stdout.split())
    return out


def test_the_notebook_has_a_statement_f_stub_and_check_cell_per_puzzle(tmp_path: Path) -> None:
    notebook = json.loads(_write(tmp_path).read_text())
    assert notebook["nbformat"] == 4
    sources = ["".join(c["source"]) for c in notebook["cells"]]
    cumsum = puzzle_named("cumsum")
    at = next(k for k, s in enumerate(sources) if s.startswith("## ") and "(`cumsum`)" in s) + 2
    assert sources[at] == stub_cell(cumsum)
    assert sources[at - 1] == cumsum.code.rstrip()
    assert sources[at + 1] == 'checker.check("cumsum", jac)' == check_cell(cumsum)
    assert len([s for s in sources if s.startswith("checker.check(")]) == 22


def test_an_unknown_chapter_is_a_usage_error(tmp_path: Path) -> None:
    result = jacpuzzles("notebook", str(tmp_path / "x.ipynb"), "--chapter", "calculus")
    assert result.returncode == 2
    assert "no chapter named 'calculus'; the chapters are autodiff, indexing" in result.stderr


def test_check_returns_a_value_that_draws_the_verdict_and_never_raises() -> None:
    wrong = check("neg", lambda x: x[None, :] * 0)
    assert not wrong.passed and wrong.verdict.status is Status.FAIL
    assert "FAIL" in wrong._repr_html_() and "neg: FAIL" in repr(wrong)


@pytest.mark.slow
def test_the_autodiff_notebook_runs_end_to_end_with_the_reference_answers(tmp_path: Path) -> None:
    path = _write(tmp_path)
    notebook = nbformat.read(str(path), as_version=4)
    wrong_name = "neg"
    current = None
    for cell in notebook.cells:
        if cell.cell_type == "markdown" and cell.source.startswith("## "):
            current = puzzle_named(cell.source.split("(`")[1].split("`)")[0])
        if current is not None and cell.source == stub_cell(current):
            name, puzzle = current.name, current
            if name == wrong_name:
                cell.source = "def jac(x):\n    return np.eye(10)  # the sign is missing"
            else:
                cell.source = answer_part((SOLUTIONS / relative_path(puzzle)).read_text())
    client = nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    results = {}
    for cell in notebook.cells:
        if cell.cell_type == "code" and cell.source.startswith("checker.check("):
            name = cell.source.split('"')[1]
            html = "".join(o.get("data", {}).get("text/html", "") for o in cell.outputs)
            text = "".join(o.get("data", {}).get("text/plain", "") for o in cell.outputs)
            assert html, f"{name}: no rich output"
            results[name] = text
    assert len(results) == 22
    for name, text in results.items():
        expected = "FAIL" if name == wrong_name else "PASS"
        assert text.startswith(f"{name}: {expected}"), text



def test_a_one_point_puzzle_reads_1_point_in_the_notebook() -> None:
    from checker._catalog import chapters
    from checker._notebook import chapter_notebook

    cells = ["".join(c["source"]) if isinstance(c["source"], list) else c["source"] for ch in chapters() for c in chapter_notebook(ch)["cells"]]
    headers = [c for c in cells if " · " in c and "point" in c]
    assert any(c.endswith("· 1 point") for c in headers) and any(c.endswith("· 2 points") for c in headers)
    assert not any("· 1 points" in c for c in headers)
