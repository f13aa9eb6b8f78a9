"""A verdict drawn for a notebook page: HTML text and the SVG heatmaps of `_picture`.

A terminal's report (`_report.VerdictView`) draws Jacobians as coloured character cells for a dark
screen. On a notebook's light page those colours read backwards (near-zero entries darkest), so a
notebook gets the pictures made for a page: white at zero, a diverging scale, every value in a
tooltip, wrong entries outlined and crossed without hiding the colour. The advice is a notebook's
(cells, `!jacpuzzles` from a cell), and a location in the kernel's file for a cell is named as
the learner's cell.
"""

from __future__ import annotations

import re
from html import escape

import numpy as np

from checker.engine._verdict import Failure, Status, Verdict, draw_phrase
from checker.learner._picture import Panel, svg

_COLOUR = {Status.PASS: "#1a7f37", Status.FAIL: "#cf222e", Status.ERROR: "#8250df", Status.TODO: "#9a6700"}
_MARK = {Status.PASS: "✔", Status.FAIL: "✘", Status.ERROR: "!", Status.TODO: "…"}
# ipykernel compiles each cell to a file named by a hash of its text (`/tmp/ipykernel_12/2603623631.py`);
# IPython without ipykernel uses `<ipython-input-3-...>`.
_CELL_FILE = re.compile(r"^(?:\d+\.py|<ipython-input-[^>]*>)$")
_LOCATION = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+): ?(?P<code>.*)$", re.S)


def cell_location(location: str | None) -> str | None:
    """`location` ("file.py:12: code") in a notebook's terms: "line 12 of your cell: code" when the
    file is the kernel's file for a cell, else unchanged."""
    if location is None:
        return None
    found = _LOCATION.match(location)
    if found is None or not _CELL_FILE.match(found["file"]):
        return location
    code = found["code"].strip()
    return f"line {found['line']} of your cell" + (f": {code}" if code else "")


def html(verdict: Verdict, seed_shown: bool = True) -> str:
    """The whole report of one verdict as an HTML fragment (no scripts, no external files)."""
    v = verdict
    colour = _COLOUR[v.status]
    parts = [
        '<div style="font-family:system-ui,sans-serif;font-size:14px;line-height:1.45">',
        f'<div style="font-weight:bold;color:{colour}">{_MARK[v.status]} {escape(v.puzzle)}: '
        f'{v.status.value.upper()}</div>',
    ]
    if v.status is Status.PASS or not v.diagnoses:
        parts.append(f"<div>{escape(v.message)}</div>")
    if v.diagnoses:
        items = "".join(
            f'<li>{escape(d.message)} <span style="color:#6e7781">[{escape(d.kind.value)}]</span></li>'
            for d in v.diagnoses
        )
        parts.append(f'<ul style="margin:4px 0">{items}</ul>')
    location = cell_location(v.location)
    if location:
        parts.append(f'<div style="color:#0550ae">at {escape(location)}</div>')
    if v.status is Status.TODO:
        parts.append(
            '<div style="color:#6e7781">Fill in the answer cell above and run this cell again; stuck? '
            f"<code>!jacpuzzles hint {escape(v.puzzle)}</code> in a cell gives one more hint each time.</div>"
        )
    if v.failure is not None:
        parts += _failure(v, v.failure, seed_shown)
    if v.output.strip():
        parts.append('<div style="margin-top:6px;color:#6e7781">your code printed:</div>')
        parts.append(f'<pre style="margin:2px 0;padding:4px;background:#f6f8fa">{escape(v.output.rstrip())}</pre>')
    parts.append("</div>")
    return "\n".join(parts)


def _failure(v: Verdict, failure: Failure, seed_shown: bool) -> list[str]:
    seed = f" (seed {v.seed})" if seed_shown else ""
    shown = f"Exposed by {draw_phrase(failure.draw_label)}"
    if failure.everywhere and v.draws > 1:
        shown = f"Wrong on all {v.draws} draws; shown on {draw_phrase(failure.draw_label)}"
    lines = [
        f"{name} = {np.array2string(np.asarray(value), precision=4, max_line_width=100, threshold=64)}"
        for name, value in failure.draw.items()
    ]
    split = max(failure.expected.ndim - 1, 0) if failure.cotangent else failure.out_ndim
    yours_split = split if failure.wrong is not None else min(split, max(failure.yours.ndim - 1, 0))
    wrong = f", {failure.wrong_count} wrong" if failure.wrong is not None else ", wrong shape"
    panels = [
        Panel(
            f"expected {failure.block} {failure.expected.shape}",
            failure.expected,
            split,
            failure.out_label,
            failure.arg,
        ),
        Panel(
            f"yours {failure.yours.shape}{wrong}",
            failure.yours,
            yours_split,
            failure.out_label,
            failure.arg,
            failure.wrong,
        ),
    ]
    picture = svg(f"{v.puzzle}: {v.status.value} on {draw_phrase(failure.draw_label)}", panels)
    return [
        f'<div style="margin-top:6px;font-weight:bold">{escape(shown)}{escape(seed)}:</div>',
        f'<pre style="margin:2px 0">{escape(chr(10).join(lines))}</pre>',
        f'<div style="overflow-x:auto">{picture}</div>',
        '<div style="color:#6e7781">Hover over a cell for its value.</div>',
    ]
