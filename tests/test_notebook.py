"""`jacpuzzles notebook`: a chapter as a notebook, executed end to end with the reference answers."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from checker import Status, check
from checker.engine._catalog import puzzle_named
from checker.engine._stubs import MARKER, answer_part, relative_path, stub
from checker.learner import _workspace
from checker.learner._notebook import check_cell, stub_cell
from tests.browser import browser, open_page
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


def _cells_of(notebook: dict[str, object], name: str) -> tuple[str, str, str]:
    """The `f`, answer and check cells of puzzle `name`."""
    sources = ["".join(c["source"]) for c in notebook["cells"]]  # type: ignore[attr-defined, index]
    at = next(k for k, s in enumerate(sources) if s.startswith("## ") and f"(`{name}`)" in s)
    return sources[at + 1], sources[at + 2], sources[at + 3]


def test_the_notebook_carries_the_learners_own_answers_and_stubs_for_the_rest(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    _workspace.init(ws)
    cumsum = (SOLUTIONS / "autodiff" / "cumsum.py").read_text()
    (ws / "autodiff" / "cumsum.py").write_text(cumsum)
    # The per-entry form below the stub's own `jac`, which is left in place: the check cell takes fb_neg.
    per_entry = "def fb_neg(x):\n    def dx(i, o):\n        return -1.0 if i == o else 0.0\n    return -x, dx"
    (ws / "autodiff" / "neg.py").write_text(stub(puzzle_named("neg")) + "\n" + per_entry + "\n")
    wrong = "def jac(x):\n    return np.eye(10)  # mine, and wrong"
    (ws / "autodiff" / "relu.py").write_text(stub(puzzle_named("relu")).split(MARKER)[0] + MARKER + "\n" + wrong + "\n")
    out = tmp_path / "mine.ipynb"
    result = jacpuzzles("notebook", str(out), cwd=ws)
    assert result.returncode == 0, result.stderr
    assert "with your answers to 3 of them, from this workspace (neg, relu, cumsum)" in " ".join(result.stdout.split())
    notebook = json.loads(out.read_text())
    _, answer, check_ = _cells_of(notebook, "cumsum")
    assert answer == answer_part(cumsum).strip("\n") and check_ == 'checker.check("cumsum", jac)'
    _, answer, check_ = _cells_of(notebook, "neg")
    assert per_entry in answer and check_ == 'checker.check("neg", fb_neg)'
    _, answer, check_ = _cells_of(notebook, "relu")
    assert answer == wrong and check_ == 'checker.check("relu", jac)'
    _, answer, check_ = _cells_of(notebook, "id")  # no answer yet: the stub
    assert answer == stub_cell(puzzle_named("id")) and check_ == 'checker.check("id", jac)'

    # The cells run as exported: the learner's verdicts, not NotImplementedError.
    namespace: dict[str, object] = {}
    exec("".join(notebook["cells"][1]["source"]), namespace)
    verdicts = {}
    for name in ("cumsum", "neg", "relu"):
        f, answer, check_ = _cells_of(notebook, name)
        exec(f, namespace)
        exec(answer, namespace)
        verdicts[name] = eval(check_, namespace).verdict.status
    assert verdicts == {"cumsum": Status.PASS, "neg": Status.PASS, "relu": Status.FAIL}

    blank = tmp_path / "blank.ipynb"
    assert jacpuzzles("notebook", str(blank), "--blank", cwd=ws).returncode == 0
    _, answer, _ = _cells_of(json.loads(blank.read_text()), "cumsum")
    assert answer == stub_cell(puzzle_named("cumsum"))


def test_an_unknown_chapter_is_a_usage_error(tmp_path: Path) -> None:
    result = jacpuzzles("notebook", str(tmp_path / "x.ipynb"), "--chapter", "calculus")
    assert result.returncode == 2
    assert "no chapter named 'calculus'; the chapters are autodiff, indexing" in result.stderr


def test_check_returns_a_value_that_draws_the_verdict_and_never_raises() -> None:
    wrong = check("neg", lambda x: x[None, :] * 0)
    assert not wrong.passed and wrong.verdict.status is Status.FAIL
    assert "FAIL" in wrong._repr_html_() and "neg: FAIL" in repr(wrong)


def test_a_check_interrupted_in_a_notebook_leaves_the_next_check_alone() -> None:
    import signal
    import threading

    import jax.numpy as jnp

    def right(x):  # type: ignore[no-untyped-def]
        return -jnp.eye(10)

    def hangs(x):  # type: ignore[no-untyped-def]
        while True:
            pass

    assert check("neg", right).passed  # JAX warm: the interrupt below lands in the answer
    interrupt = threading.Timer(1.0, signal.pthread_kill, (threading.main_thread().ident, signal.SIGINT))
    interrupt.start()
    with pytest.raises(KeyboardInterrupt):  # Jupyter's "interrupt the kernel"
        check("neg", hangs)
    interrupt.join()
    again = check("neg", right)  # no KeyboardInterrupt left over from the one above
    assert again.passed


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
    client = nbclient.NotebookClient(
        notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()
    results, pages = {}, {}
    for cell in notebook.cells:
        if cell.cell_type == "code" and cell.source.startswith("checker.check("):
            name = cell.source.split('"')[1]
            html = "".join(o.get("data", {}).get("text/html", "") for o in cell.outputs)
            text = "".join(o.get("data", {}).get("text/plain", "") for o in cell.outputs)
            assert html, f"{name}: no rich output"
            results[name], pages[name] = text, html
    assert len(results) == 22
    for name, text in results.items():
        expected = "FAIL" if name == wrong_name else "PASS"
        assert text.startswith(f"{name}: {expected}"), text
    _looks_right_in_a_browser(pages[wrong_name], tmp_path)


def _looks_right_in_a_browser(html: str, folder: Path) -> None:
    """The wrong answer's report, as a real browser draws it: zeros white, -1 blue, +1 red, the
    red still showing beside the cross on a wrong entry, the two panels' titles apart."""
    if browser() is None and not os.environ.get("CI"):
        pytest.skip("no Chromium here (apt-get install chromium); .ci/run installs it")
    from PIL import Image

    page = open_page(html, folder)
    pixels = Image.open(page.screenshot).convert("RGB")
    (expected_title, yours_title), (expected, yours) = page.geometry["titles"], page.geometry["grids"]
    assert expected_title[2] < yours_title[0], f"the panel titles overlap: {page.geometry['titles']}"

    def colour(grid: list[float], row: int, col: int, at: tuple[float, float] = (0.5, 0.5)) -> tuple[int, int, int]:
        side = (grid[2] - grid[0]) / 10
        r, g, b = pixels.getpixel((int(grid[0] + (col + at[0]) * side), int(grid[1] + (row + at[1]) * side)))
        return r, g, b

    assert min(colour(expected, 0, 1)) >= 245 and min(colour(yours, 3, 7)) >= 245  # zero: white, not dark
    r, g, b = colour(expected, 2, 2)
    assert b > r + 60, f"-1 should be blue, is {(r, g, b)}"
    r, g, b = colour(yours, 2, 2, at=(0.3, 0.75))  # beside the cross's stroke
    assert r > b + 60, f"a crossed +1 should still show red, is {(r, g, b)}"



def test_a_constant_a_cell_computes_is_float64_as_in_the_cli(tmp_path: Path) -> None:
    # Red team RT34's F14: with JAX's default float32, `C = np.sqrt(2 / np.pi)` in a cell was a
    # float32 constant, and a right GELU answer failed in the notebook while `check` passed it.
    import subprocess
    import sys

    from checker.learner._notebook import _SETUP

    answer = (
        "C = np.sqrt(2 / np.pi)\n"
        "def jac(x):\n"
        "    u = C * (x + 0.044715 * x**3)\n"
        "    t = np.tanh(u)\n"
        "    return np.diag(0.5 * (1 + t) + 0.5 * x * (1 - t**2) * C * (1 + 3 * 0.044715 * x**2))\n"
    )
    checks = "print([checker.check('gelu', jac, seed=s).passed for s in (0, 1)])\n"
    done = subprocess.run([sys.executable, "-c", _SETUP + "\n" + answer + checks], capture_output=True, text=True,
                          cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[True, True]", done.stdout


def test_a_one_point_puzzle_reads_1_point_in_the_notebook() -> None:
    from checker.engine._catalog import chapters
    from checker.learner._notebook import chapter_notebook

    cells = [
        "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
        for ch in chapters()
        for c in chapter_notebook(ch)["cells"]
    ]
    headers = [c for c in cells if " · " in c and "point" in c]
    assert any(c.endswith("· 1 point") for c in headers) and any(c.endswith("· 2 points") for c in headers)
    assert not any("· 1 points" in c for c in headers)


def _setup_cell(path: Path) -> str:
    return "".join(json.loads(path.read_text())["cells"][1]["source"])


def test_the_setup_cell_installs_the_kit_from_where_it_can_be_installed(tmp_path: Path) -> None:
    """Not `pip install jacpuzzles` (the package index has no such kit): the source given with
    --install-from, else the one this kit was installed from; only when the kit is missing."""
    url = "https://example.org/dist/jacpuzzles-0.1.0-py3-none-any.whl"
    result = jacpuzzles("notebook", str(tmp_path / "a.ipynb"), "--blank", "--install-from", url)
    assert result.returncode == 0, result.stderr
    cell = _setup_cell(tmp_path / "a.ipynb")
    assert f"'jacpuzzles @ {url}'" in cell and "(`notebook --install-from`)" in cell
    assert (
        'importlib.metadata.version("jacpuzzles")' in cell and "except importlib.metadata.PackageNotFoundError:" in cell
    )
    assert "%pip install jacpuzzles" not in cell
    wheel = tmp_path / "jacpuzzles-0.1.0-py3-none-any.whl"
    wheel.write_bytes(b"")
    assert jacpuzzles("notebook", str(tmp_path / "b.ipynb"), "--blank", "--install-from", str(wheel)).returncode == 0
    assert f"'jacpuzzles @ {wheel.resolve().as_uri()}'" in _setup_cell(tmp_path / "b.ipynb")
    assert jacpuzzles("notebook", str(tmp_path / "c.ipynb"), "--blank").returncode == 0
    default = _setup_cell(tmp_path / "c.ipynb")
    assert "'jacpuzzles @ " in default and "'jacpuzzles'" not in default  # where this kit came from
    compile(default, "setup", "exec")  # plain Python: runs in any kernel


def test_the_install_source_follows_pips_record(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.metadata

    from checker.learner import _notebook

    class Installed:
        def __init__(self, record: dict[str, object]) -> None:
            self.record = record

        def read_text(self, name: str) -> str:
            return json.dumps(self.record)

    cases = [
        ({"url": "https://github.com/org/jacpuzzles", "vcs_info": {"vcs": "git", "commit_id": "abc123"}}, "jacpuzzles @ git+https://github.com/org/jacpuzzles@abc123"),
        ({"url": "https://example.org/jacpuzzles-0.1.0-py3-none-any.whl", "archive_info": {}}, "jacpuzzles @ https://example.org/jacpuzzles-0.1.0-py3-none-any.whl"),
        ({"url": "file:///home/prof/jacpuzzles", "dir_info": {"editable": True}}, "jacpuzzles @ file:///home/prof/jacpuzzles"),
    ]
    for record, expected in cases:
        monkeypatch.setattr(importlib.metadata, "distribution", lambda name, r=record: Installed(r))
        assert _notebook.install_requirement()[0] == expected
    assert "--install-from" in _notebook.install_requirement()[1]  # a local source: how to reach Colab
