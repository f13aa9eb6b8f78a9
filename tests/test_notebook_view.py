"""A verdict drawn for a notebook's page: SVG heatmaps made for a light page, notebook advice."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import numpy as np

from checker.learner._notebook import check
from checker.learner._notebook_view import cell_location
from checker.learner._picture import Panel, svg

SVG = "{http://www.w3.org/2000/svg}"


def _picture(html: str) -> ET.Element:
    found = re.search(r"<svg .*?</svg>", html, re.S)
    assert found is not None, html
    return ET.fromstring(found.group())


def test_a_wrong_answer_draws_pictures_white_at_zero_with_its_wrong_entries_crossed() -> None:
    html = check("neg", lambda x: np.eye(10))._repr_html_()  # the sign forgotten: 10 wrong entries
    assert "\x1b[" not in html and "neg: FAIL" in html
    root = _picture(html)
    ground = [r for r in root.iter(f"{SVG}rect") if r.get("fill") == "#ffffff"]
    assert ground, "a white ground under each grid: zeros are white"
    cells = [r for r in root.iter(f"{SVG}rect") if r.find(f"{SVG}title") is not None]
    assert len(cells) == 20  # only the nonzero entries get a coloured cell: 10 expected, 10 yours
    assert {c.get("fill") for c in cells} == {"#b2182b", "#2166ac"}  # yours red (+1), expected blue (-1)
    assert len(list(root.iter(f"{SVG}line"))) == 10  # each wrong entry crossed, its colour still shown
    assert "d f[0] / d x[0] = -1" in html  # the value on hover
    assert "[sign]" in html


def test_a_notebook_names_the_cell_not_the_kernel_s_file() -> None:
    assert cell_location("2603623631.py:2: return x @ y") == "line 2 of your cell: return x @ y"
    assert cell_location("<ipython-input-3-1a2b>:7: 1 / 0") == "line 7 of your cell: 1 / 0"
    assert cell_location("cumsum.py:14: return np.tri(10)") == "cumsum.py:14: return np.tri(10)"

    def jac(x):  # type: ignore[no-untyped-def]
        raise NotImplementedError

    todo = check("neg", jac)._repr_html_()
    assert "!jacpuzzles hint neg" in todo and "jacpuzzles show" not in todo


def test_panel_titles_stay_apart_and_a_long_note_wraps_inside_the_picture() -> None:
    panels = [
        Panel("expected d f / d x (2, 2) with a long title", np.eye(2), 1),
        Panel("yours (2, 2), 4 wrong", np.eye(2), 1),
    ]
    note = "each of your entries is 1/2 of the expected one; " * 6
    root = ET.fromstring(svg("t", panels, note))
    width = float(root.get("width") or 0)
    groups = [g for g in root.iter(f"{SVG}g")]
    starts = [float(re.search(r"translate\((\d+)", g.get("transform", "")).group(1)) for g in groups]  # type: ignore[union-attr]
    first_title = next(t for t in groups[0].iter(f"{SVG}text") if t.get("class") == "panel")
    title_end = starts[0] + float(first_title.get("x") or 0) + 7.8 * len(first_title.text or "")  # 13px monospace
    assert title_end < starts[1], "the first panel's title runs into the second panel"
    notes = [t for t in root.iter(f"{SVG}text") if t.get("class") == "note"][1:]
    assert len(notes) > 1 and " ".join(t.text or "" for t in notes).split() == note.split()
    assert all(8 + 6.6 * len(t.text or "") <= width for t in notes)  # 11px monospace fits the width
