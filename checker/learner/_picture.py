"""Jacobians as SVG pictures: a heat-map grid per block, for the docs pages and `show --svg`.

A block is drawn like the terminal heatmaps (`_report.Heatmap`): one row per output entry, one
column per input entry (higher ranks flattened, labelled by multi-index), red above zero, blue
below, white exactly zero, darker for larger magnitudes. Plain string building, no plotting
library; the text is deterministic, so the generated pictures can be checked for drift.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path

import numpy as np

from checker.engine._catalog import Puzzle
from checker.engine._verdict import Verdict, draw_phrase, number

_STYLE = (
    "<style>text{font-family:ui-monospace,Menlo,Consolas,monospace}.tick{font-size:10px;fill:#555}"
    ".axis{font-size:11px}.note{font-size:11px;fill:#555}.panel{font-size:13px;font-weight:bold}"
    ".title{font-size:14px;font-weight:bold}</style>"
)
_POSITIVE = (178, 24, 43)  # the ends of a red-blue diverging scale
_NEGATIVE = (33, 102, 172)
_NONFINITE = "#ffd400"
_GAP = 36  # between panels
# Pixels per character of each text class (monospace: about 0.6 of the font size), to fit text.
_TEXT_WIDTH = {"panel": 8.0, "title": 8.5, "note": 6.7}


@dataclass(frozen=True)
class Panel:
    """One block to draw: `array` split into output axes (`out_ndim` of them) and input axes."""

    title: str
    array: np.ndarray
    out_ndim: int
    out_name: str = "f"
    in_name: str = "x"
    wrong: np.ndarray | None = None  # entries to outline, same shape as `array`


def _label(flat: int, shape: tuple[int, ...]) -> str:
    return ",".join(str(int(i)) for i in np.unravel_index(flat, shape)) if shape else "0"


def _color(value: float, top: float) -> str:
    if not math.isfinite(value):
        return _NONFINITE
    if value == 0 or top == 0:
        return "#ffffff"
    # Quantised, so rounding in the last digits of a value never changes the picture; never
    # lighter than 12%, so a tiny nonzero entry stays visible against the white zeros.
    t = max(0.12, round(min(1.0, abs(value) / top) * 20) / 20)
    end = _POSITIVE if value > 0 else _NEGATIVE
    r, g, b = (round(255 + (c - 255) * t) for c in end)
    return f"#{r:02x}{g:02x}{b:02x}"


def _number(value: float) -> str:
    return number(value, ".4g") if math.isfinite(value) else str(value)


def _panel(panel: Panel, x0: int, y0: int) -> tuple[list[str], int, int]:
    """SVG elements of one panel placed at (x0, y0), and its width and height."""
    array = np.asarray(panel.array, dtype=np.float64)
    split = min(panel.out_ndim, array.ndim)
    out_shape, in_shape = array.shape[:split], array.shape[split:]
    rows, cols = math.prod(out_shape), math.prod(in_shape)
    grid = array.reshape(rows, cols)
    wrong = None if panel.wrong is None else np.asarray(panel.wrong, dtype=bool).reshape(rows, cols)
    cell = max(6, min(26, 400 // max(rows, cols, 1)))
    every_row = max(1, math.ceil(12 / cell))
    row_labels = [_label(r, out_shape) for r in range(rows)]
    col_labels = [_label(c, in_shape) for c in range(cols)]
    left = 30 + 7 * max(len(s) for s in row_labels)
    longest = max(len(s) for s in col_labels)
    every_col = max(1, math.ceil(12 / cell))
    upright = 6 * longest + 2 <= cell * every_col  # else written vertically
    top = 22 + (14 if upright else 7 * longest + 8)
    # A title longer than the grid widens the panel, so the next panel's title never overlaps it.
    width, height = (
        math.ceil(max(left + cols * cell, left + _TEXT_WIDTH["panel"] * len(panel.title))) + 8,
        top + rows * cell + 30,
    )
    finite = grid[np.isfinite(grid)]
    biggest = float(np.max(np.abs(finite), initial=0.0))
    out: list[str] = [f'<g transform="translate({x0},{y0})">']
    out.append(f'<text x="{left}" y="14" class="panel">{escape(panel.title)}</text>')
    for c in range(0, cols, every_col):
        cx = left + c * cell + cell / 2
        text = escape(col_labels[c])
        if upright:
            out.append(f'<text x="{cx:g}" y="{top - 4}" text-anchor="middle" class="tick">{text}</text>')
        else:
            out.append(
                f'<text x="{cx + 3:g}" y="{top - 4}" transform="rotate(-90 {cx + 3:g} {top - 4})" '
                f'class="tick">{text}</text>'
            )
    for r in range(0, rows, every_row):
        cy = top + r * cell + cell / 2 + 3.5
        out.append(f'<text x="{left - 4}" y="{cy:g}" text-anchor="end" class="tick">{escape(row_labels[r])}</text>')
    # White ground and grid lines; only nonzero entries get a rect of their own (with their value
    # as a tooltip), so a large sparse Jacobian stays a small file.
    out.append(f'<rect x="{left}" y="{top}" width="{cols * cell}" height="{rows * cell}" fill="#ffffff"/>')
    for r, c in np.argwhere(grid != 0):
        value = float(grid[r, c])
        out.append(
            f'<rect x="{left + c * cell}" y="{top + r * cell}" width="{cell}" height="{cell}" '
            f'fill="{_color(value, biggest)}">'
            f"<title>d {escape(panel.out_name)}[{row_labels[r]}] / d {escape(panel.in_name)}[{col_labels[c]}] = "
            f"{_number(value)}</title></rect>"
        )
    if cell >= 8:
        lines = [f"M{left} {top + r * cell}h{cols * cell}" for r in range(rows + 1)]
        lines += [f"M{left + c * cell} {top}v{rows * cell}" for c in range(cols + 1)]
        out.append(f'<path d="{"".join(lines)}" stroke="#d9d9d9" stroke-width="0.5" fill="none"/>')
    out.append(
        f'<rect x="{left}" y="{top}" width="{cols * cell}" height="{rows * cell}" fill="none" stroke="#999" '
        'stroke-width="0.8"/>'
    )
    if wrong is not None:
        for r, c in np.argwhere(wrong):
            x, y = left + int(c) * cell, top + int(r) * cell
            out.append(
                f'<rect x="{x + 1}" y="{y + 1}" width="{cell - 2}" height="{cell - 2}" fill="none" stroke="#000" '
                'stroke-width="2"/>'
                f'<line x1="{x + 2}" y1="{y + 2}" x2="{x + cell - 2}" y2="{y + cell - 2}" stroke="#000" '
                'stroke-width="1.2"/>'
            )
    mid_x, mid_y = left + cols * cell / 2, top + rows * cell / 2
    out.append(
        f'<text x="{mid_x:g}" y="{top + rows * cell + 16}" text-anchor="middle" class="axis">'
        f"input entry of {escape(panel.in_name)} {_shape_text(in_shape)}</text>"
    )
    out.append(
        f'<text x="12" y="{mid_y:g}" transform="rotate(-90 12 {mid_y:g})" text-anchor="middle" class="axis">'
        f"output entry of {escape(panel.out_name)} {_shape_text(out_shape)}</text>"
    )
    out.append("</g>")
    return out, width, height


def _shape_text(shape: tuple[int, ...]) -> str:
    return f"({', '.join(map(str, shape))}{',' if len(shape) == 1 else ''})" if shape else "()"


def svg(title: str, panels: Sequence[Panel], note: str = "") -> str:
    """A whole picture: a title line, the panels side by side, and a legend."""
    parts: list[str] = []
    x, height = 8, 0
    for panel in panels:
        elements, w, h = _panel(panel, x, 30)
        parts += elements
        x += w + _GAP
        height = max(height, h)
    legend = "red: positive · blue: negative · white: exactly 0 · darker: larger |value| (per panel)"
    if any(p.wrong is not None for p in panels):
        legend += " · crossed: a wrong entry"
    width = round(max(x - _GAP + 8, _TEXT_WIDTH["note"] * len(legend) + 16, _TEXT_WIDTH["title"] * len(title) + 16))
    # The note (a diagnosis) is wrapped to the picture's width, never cut at its right edge.
    notes = textwrap.wrap(note, max(40, int((width - 16) / _TEXT_WIDTH["note"]))) if note else []
    total = 30 + height + 20 + 16 * len(notes)
    head = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{total}" viewBox="0 0 {width} {total}">',
        _STYLE,
        f'<rect width="{width}" height="{total}" fill="#ffffff"/>',
        f'<text x="8" y="18" class="title">{escape(title)}</text>',
    ]
    tail = [f'<text x="8" y="{30 + height + 12}" class="note">{escape(legend)}</text>']
    tail += [
        f'<text x="8" y="{30 + height + 28 + 16 * k}" class="note">{escape(line)}</text>'
        for k, line in enumerate(notes)
    ]
    return "\n".join(head + parts + tail + ["</svg>"]) + "\n"


def block_panels(puzzle: Puzzle, blocks: Sequence[np.ndarray], prefix: str = "") -> list[Panel]:
    """A panel per block of `puzzle` (a cotangent is drawn as its argument: leading axes as rows)."""
    from checker.engine._judge import block_names

    names = block_names(puzzle)
    panels = []
    for k, block in enumerate(blocks):
        arg = puzzle.wrt[k % len(puzzle.wrt)]
        block = np.asarray(block)
        if puzzle.is_vjp:
            panels.append(Panel(f"{prefix}{names[k]} {block.shape}", block, max(block.ndim - 1, 0), names[k], arg.name))
            continue
        out = "f" if len(puzzle.outs) == 1 else f"f[{k // len(puzzle.wrt)}]"
        panels.append(Panel(f"{prefix}{names[k]} {block.shape}", block, len(puzzle.block_outs()[k]), out, arg.name))
    return panels


def expected_pictures(puzzles: Sequence[Puzzle], seed: int = 0) -> dict[str, str]:
    """Each puzzle's expected Jacobian on its first draw of `seed` (a random draw, where every
    entry of the pattern shows), as SVG text, by puzzle name. Computed in one go."""
    from checker.engine import _numerics, _oracles, _sampling

    with _numerics.pinned():
        work = [(p, _sampling.draws(p, seed)[:1]) for p in puzzles]
        found = _oracles.expected_many(work)
    pictures = {}
    for puzzle, batch in work:
        what = "cotangents" if puzzle.is_vjp else "Jacobian"
        title = f"{puzzle.name}: the expected {what} on {draw_phrase(batch[0].label)} (seed {seed})"
        pictures[puzzle.name] = svg(title, block_panels(puzzle, found[puzzle.name][0]))
    return pictures


def answer_picture(puzzle: Puzzle, path: Path, seed: int = 0) -> tuple[str | None, Verdict]:
    """The learner's Jacobian next to the expected one, wrong entries crossed: on the draw that
    exposed a mistake, or on the first draw when the answer passes. None when the answer gave no
    arrays to draw (an error, a todo); the verdict says why."""
    from checker.engine import _numerics, _runner, _sampling
    from checker.engine._engine import check_files

    verdict = check_files([(puzzle.name, path)], seed, variants={puzzle.name: dict(puzzle.variant)})[
        0
    ]  # `puzzle`'s own variant
    failure = verdict.failure
    if failure is not None:
        split = failure.out_ndim if not failure.cotangent else max(failure.expected.ndim - 1, 0)
        yours_split = split if failure.wrong is not None else min(split, max(failure.yours.ndim - 1, 0))
        panels = [
            Panel(
                f"expected {failure.block} {failure.expected.shape}",
                failure.expected,
                split,
                failure.out_label,
                failure.arg,
            ),
            Panel(
                f"yours {failure.yours.shape}"
                + (f", {failure.wrong_count} wrong" if failure.wrong is not None else ", wrong shape"),
                failure.yours,
                yours_split,
                failure.out_label,
                failure.arg,
                failure.wrong,
            ),
        ]
        title = f"{puzzle.name}: {verdict.status.value} on {draw_phrase(failure.draw_label)} (seed {seed})"
        return svg(title, panels, verdict.diagnoses[0].message if verdict.diagnoses else ""), verdict
    if not verdict.passed:
        return None, verdict
    with _numerics.pinned():
        batch = _sampling.draws(puzzle, seed)[:1]
        run = _runner.run(puzzle, path, batch)
    expected = expected_pictures([puzzle], seed)[puzzle.name]
    if run.problem is not None or not run.answers:
        return expected, verdict
    panels = block_panels(puzzle, run.answers[0], "yours: ")
    title = f"{puzzle.name}: pass; yours on {draw_phrase(batch[0].label)} (seed {seed})"
    return svg(title, panels, verdict.message), verdict
