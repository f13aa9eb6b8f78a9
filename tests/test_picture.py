"""Pictures of Jacobians: the SVG heat maps of `show --svg` and of the puzzle pages."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np

from checker.learner._picture import Panel, svg
from tests.conftest import REPO, write_answer
from tests.test_cli import jacpuzzles

SVG = "{http://www.w3.org/2000/svg}"


def test_a_panel_colours_by_sign_leaves_zeros_white_and_labels_its_axes() -> None:
    picture = svg("t", [Panel("d f / d x", np.array([[2.0, 0.0], [0.0, -2.0]]), 1)])
    root = ET.fromstring(picture)
    cells = [r for r in root.iter(f"{SVG}rect") if r.find(f"{SVG}title") is not None]
    assert [c.find(f"{SVG}title").text for c in cells] == ["d f[0] / d x[0] = 2", "d f[1] / d x[1] = -2"]  # type: ignore[union-attr]
    assert cells[0].get("fill") == "#b2182b" and cells[1].get("fill") == "#2166ac"  # red, blue; zeros not drawn
    assert "input entry of x (2,)" in picture and "output entry of f (2,)" in picture


def test_show_svg_writes_the_expected_jacobian(tmp_path: Path) -> None:
    out = tmp_path / "cumsum.svg"
    result = jacpuzzles("show", "cumsum", "--svg", str(out))
    assert result.returncode == 0, result.stderr
    assert out.read_text() == (REPO / "docs" / "puzzles" / "img" / "cumsum.svg").read_text()
    cells = [r for r in ET.fromstring(out.read_text()).iter(f"{SVG}rect") if r.find(f"{SVG}title") is not None]
    assert len(cells) == 55  # the lower triangle with the diagonal, each 1/20


def test_show_svg_mine_crosses_the_wrong_entries(tmp_path: Path) -> None:
    folder = tmp_path / "answers"
    folder.mkdir()
    write_answer(folder, "neg", "import numpy as np\n\ndef jac(x):\n    return np.eye(10)\n")
    out = tmp_path / "mine.svg"
    result = jacpuzzles("show", "neg", "--dir", str(folder), "--svg", str(out), "--mine")
    assert result.returncode == 1, result.stderr
    assert "10 wrong entries crossed" in " ".join(result.stdout.split())
    root = ET.fromstring(out.read_text())
    assert len(list(root.iter(f"{SVG}line"))) == 10
    assert "yours (10, 10), 10 wrong" in out.read_text()


def test_every_puzzle_page_embeds_its_picture() -> None:
    page = (REPO / "docs" / "puzzles" / "mul.md").read_text()
    assert "](img/mul.svg)" in page and (REPO / "docs" / "puzzles" / "img" / "mul.svg").is_file()
