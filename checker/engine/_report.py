"""Reports: verdicts drawn with rich for people, and as JSON for machines.

Nothing here judges: every fact comes from a `Verdict`. The drawing is split into renderables
(`Heatmap`, `VerdictView`, `summary_table`) that tests render to a string.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.measure import Measurement
from rich.padding import Padding
from rich.panel import Panel
from rich.style import Style
from rich.table import Table
from rich.text import Text

from checker.engine._badge import SYMBOL as BADGE, label as badge_label
from checker.engine._verdict import Failure, Status, Verdict, draw_phrase, unsigned, with_texts

STATUS_STYLE = {
    Status.PASS: "bold green",
    Status.FAIL: "bold red",
    Status.ERROR: "bold magenta",
    Status.TODO: "yellow",
}
STATUS_MARK = {Status.PASS: "✔", Status.FAIL: "✘", Status.ERROR: "!", Status.TODO: "…"}
# Characters that drive a terminal rather than print: C0 controls but newline and tab (ESC starts
# colours, cursor moves, OSC 8 links and OSC 52 clipboard writes; CR and BS overwrite a line),
# DEL, C1 controls (0x9b is a one-byte CSI), and Unicode's bidirectional overrides.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """`text` that came from an answer (what it printed, an exception's message, a file name),
    safe to show on a terminal and to write where an instructor will `cat` it: every control
    character but newline and tab shown as its escape (`\\x1b`), so nothing it holds can clear
    a screen, move the cursor, hide what follows, or write the clipboard."""
    return _CONTROL.sub(
        lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}", text
    )


def printable_verdict(verdict: Verdict) -> Verdict:
    """`verdict` with every text that can come from an answer made `printable`."""
    return with_texts(verdict, printable)


MAX_SIDE = 24  # rows or columns of a heatmap shown; larger Jacobians show a window
WRONG_MARK = "*"


def compact(value: float) -> str:
    """A number in at most 4 characters: `1`, `-.5`, `.05`, `20`, `1e3`; zero is a dot."""
    if value == 0:
        return "·"
    if not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    sign = "-" if value < 0 else ""
    size = abs(value)
    if 0.01 <= size < 9999.5:
        text = str(int(round(size))) if size >= 9.95 else f"{size:.2g}"
        if "e" not in text:
            return sign + (text[1:] if text.startswith("0.") else text)
    exponent = int(math.floor(math.log10(size)))
    mantissa = round(size / 10**exponent)
    if mantissa == 10:  # 9.96e-8 rounds up to the next power of ten: 1e-7, never 10e-8
        mantissa, exponent = 1, exponent + 1
    return f"{sign}{mantissa}e{exponent}"


def _cell_style(value: float, top: float) -> Style:
    # Diverging: blue below zero, red above, stronger with magnitude (as RdBu in the notebooks).
    if not math.isfinite(value):
        return Style(color="black", bgcolor="bright_yellow", bold=True)
    if value == 0 or top == 0:
        return Style(dim=True)
    shade = min(1.0, abs(value) / top)
    level = int(60 + 140 * shade)
    bg = (level, 40, 40) if value > 0 else (40, 60, level)
    return Style(color="white", bgcolor=f"rgb({bg[0]},{bg[1]},{bg[2]})")


def _label(flat: int, shape: tuple[int, ...]) -> str:
    """The multi-index of entry `flat` of an array of `shape`, as "1,2" ("·" for a scalar)."""
    return ",".join(str(int(i)) for i in np.unravel_index(flat, shape)) if shape else "·"


def _window(n: int, focus: int, side: int = MAX_SIDE) -> range:
    if n <= side:
        return range(n)
    start = min(max(0, focus - side // 2), n - side)
    return range(start, start + side)


class Heatmap:
    """A Jacobian block as a 2-D coloured grid: rows are output indices, columns input indices.

    Higher-rank blocks are flattened to (output entries, input entries) with each row and column
    labelled by its multi-index; entries where `wrong` is set carry a `*`. At most `columns`
    columns are shown, fewer when the console is too narrow for them (`fitted`), in a window
    around `focus`.
    """

    def __init__(
        self,
        title: str,
        array: np.ndarray,
        out_ndim: int,
        wrong: np.ndarray | None = None,
        focus: tuple[int, int] = (0, 0),
        columns: int = MAX_SIDE,
    ) -> None:
        self._made = (title, array, out_ndim, wrong, focus)
        array = np.asarray(array, dtype=np.float64)
        out_ndim = min(out_ndim, array.ndim)
        self.title = title
        self.out_shape = array.shape[:out_ndim]
        self.in_shape = array.shape[out_ndim:]
        rows, cols = math.prod(self.out_shape), math.prod(self.in_shape)
        self.grid = array.reshape(rows, cols)
        self.wrong = None if wrong is None else np.asarray(wrong).reshape(rows, cols)
        self.rows = _window(rows, focus[0])
        self.cols = _window(cols, focus[1], columns)
        row_labels = [_label(r, self.out_shape) for r in self.rows]
        col_labels = [_label(c, self.in_shape) for c in self.cols]
        self.numbers = [[compact(float(self.grid[r, c])) for c in self.cols] for r in self.rows]
        self.cell = max(*(len(n) for row in self.numbers for n in row), *(len(c) for c in col_labels))
        self.left = max(len(r) for r in row_labels)
        self.row_labels, self.col_labels = row_labels, col_labels
        shown = []
        if len(self.rows) < rows:
            shown.append(f"output entries {self.rows.start}-{self.rows.stop - 1} of {rows}")
        if len(self.cols) < cols:
            shown.append(f"input entries {self.cols.start}-{self.cols.stop - 1} of {cols}")
        self.footer = "showing " + ", ".join(shown) if shown else ""
        self.grid_width = self.left + 1 + (self.cell + 1) * len(self.cols)
        self.width = max(self.grid_width, len(self.title), len(self.footer))

    def fitted(self, max_width: int) -> Heatmap:
        """This heatmap with as many columns as fit `max_width` (still around the focus): a
        wrapped row would no longer line up with its column labels."""
        fitted = self
        while fitted.grid_width > max_width and len(fitted.cols) > 1:
            fewer = min(len(fitted.cols) - 1, max(1, (max_width - fitted.left - 1) // (fitted.cell + 1)))
            fitted = Heatmap(*self._made, columns=fewer)
        return fitted

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(self.width, self.width)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        fitted = self.fitted(options.max_width)
        yield from fitted.lines(console.no_color or console.color_system is None, fitted.width <= options.max_width)

    def lines(self, plain: bool = False, fits: bool = False) -> list[Text]:
        """The heatmap's lines; `plain` leaves out the cells' colours (a console without colour
        drops them anyway, and styling thousands of cells is most of the drawing's cost). When
        the lines `fits` the width, rich is told so and skips looking for places to wrap them."""
        finite = self.grid[np.isfinite(self.grid)]
        top = float(np.max(np.abs(finite), initial=0.0))
        width, left = self.cell, self.left
        found = [
            Text(self.title, style="bold"),
            Text(" " * (left + 1) + "".join(c.rjust(width) + " " for c in self.col_labels), style="dim", no_wrap=fits),
        ]
        for r, label, numbers in zip(self.rows, self.row_labels, self.numbers):
            marks = [WRONG_MARK if self.wrong is not None and self.wrong[r, c] else " " for c in self.cols]
            if plain:
                found.append(
                    Text(
                        label.rjust(left) + " " + "".join(n.rjust(width) + m for n, m in zip(numbers, marks)),
                        no_wrap=fits,
                    )
                )
                continue
            line = Text(label.rjust(left) + " ", style="dim", no_wrap=fits)
            for c, number, mark in zip(self.cols, numbers, marks):
                line.append(number.rjust(width), style=_cell_style(float(self.grid[r, c]), top))
                line.append(mark, style="bold yellow")
            found.append(line)
        if self.footer:
            found.append(Text(self.footer, style="dim"))
        return found


class _SideBySide:
    """Heatmaps next to each other, `gap` columns apart, or one below the other when they do not
    fit the width (rich's `Columns` draws the same through a table, many times slower)."""

    def __init__(self, maps: Sequence[Heatmap], gap: int = 4) -> None:
        self.maps = maps
        self.gap = gap

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        plain = console.no_color or console.color_system is None
        if sum(m.width for m in self.maps) + self.gap * (len(self.maps) - 1) > options.max_width:
            fitted = [m.fitted(options.max_width) for m in self.maps]
            drawn = [m.lines(plain, m.width <= options.max_width) for m in fitted]
            for k, lines in enumerate(drawn):
                if k:
                    yield Text()
                yield from lines
            return
        drawn = [m.lines(plain, fits=True) for m in self.maps]
        for k in range(max(len(lines) for lines in drawn)):
            row = Text(no_wrap=True)
            for m, lines in zip(self.maps, drawn):
                if row:
                    row.append(" " * self.gap)
                piece = lines[k] if k < len(lines) else Text()
                row.append_text(piece)
                row.append(" " * (m.width - piece.cell_len))
            row.rstrip()
            yield row


def _array_text(values: np.ndarray, prefix: str) -> str:
    return np.array2string(unsigned(values), precision=3, max_line_width=100, threshold=64, prefix=prefix)


class VerdictView:
    """One puzzle's verdict: status, diagnoses, and for a failure the evidence."""

    def __init__(self, verdict: Verdict, one_line: int | None = None, seed: bool = True) -> None:
        self.verdict = verdict
        self.one_line = one_line  # columns of a one-line answer (the original challenge's badge)
        self.seed = seed  # name the draws' seed (the grader's feedback does not: it may be secret)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        v = self.verdict
        head = Text()
        head.append(f"{STATUS_MARK[v.status]} {v.puzzle}: {v.status.value.upper()}", style=STATUS_STYLE[v.status])
        yield head
        if v.status is Status.PASS:
            yield Padding(Text(v.message), (0, 0, 0, 2))
            if self.one_line is not None:
                yield Padding(
                    Text(f"{badge_label(self.one_line)}: the original challenge", style="yellow"), (0, 0, 0, 2)
                )
            if len(v.oracles) > 1:
                yield Padding(_oracle_line(v), (0, 0, 0, 2))
            return
        for d in v.diagnoses:
            line = Text("  • ")
            line.append(d.message)
            line.append(f"  [{d.kind.value}]", style="dim")
            yield line
        if v.location:
            yield Padding(Text(f"at {v.location}", style="cyan"), (0, 0, 0, 4))
        if len(v.oracles) > 1:
            yield Padding(_oracle_line(v), (0, 0, 0, 2))
        if v.status is Status.TODO:
            yield Padding(
                Text(f"Start with `jacpuzzles show {v.puzzle}`; stuck? `jacpuzzles hint {v.puzzle}`.", style="dim"),
                (0, 0, 0, 2),
            )
        failure = v.failure
        if failure is not None:
            seed = f" (seed {v.seed})" if self.seed else ""
            lines = [Text(f"{shown_draw(failure, v.draws)}{seed}:", style="bold")]
            lines += [Text(f"  {name} = {_array_text(value, f'  {name} = ')}") for name, value in failure.draw.items()]
            yield Padding(Group(*lines), (1, 0, 0, 2))
            yield Padding(_SideBySide(self._maps()), (1, 0, 0, 2))
            if failure.wrong is not None:
                axes = (
                    "rows and columns: the argument's own axes"
                    if failure.cotangent
                    else "rows: output index, columns: input index"
                )
                yield Padding(
                    Text(f"{WRONG_MARK} marks an entry of yours that is wrong; {axes}", style="dim"), (0, 0, 0, 2)
                )
        if v.output.strip():
            yield Padding(
                Panel(Text(v.output.rstrip()), title="your code printed", border_style="dim", expand=False),
                (1, 0, 0, 2),
            )

    def _maps(self) -> list[Heatmap]:
        f = self.verdict.failure
        assert f is not None
        # A cotangent has no output axes: draw it as the argument itself, its first axes as rows.
        split = max(f.expected.ndim - 1, 0) if f.cotangent else f.out_ndim
        if f.wrong is None:  # different shapes: show each as it is
            return [
                Heatmap(f"expected {f.block}, shape {f.expected.shape}", f.expected, split),
                Heatmap(f"yours, shape {f.yours.shape}", f.yours, min(split, max(f.yours.ndim - 1, 0))),
            ]
        rows = math.prod(f.expected.shape[:split])
        first = np.argwhere(f.wrong.reshape(rows, -1))
        focus = (int(first[0][0]), int(first[0][1])) if len(first) else (0, 0)
        return [
            Heatmap(f"expected {f.block} {f.expected.shape}", f.expected, split, focus=focus),
            Heatmap(f"yours ({f.wrong_count} wrong)", f.yours, split, f.wrong, focus=focus),
        ]


def exposing(label: str, everywhere: bool, draws: int) -> str:
    """What the draw shown with a failure is: the input that exposed the mistake, or, for a
    mistake on every draw, just one of them ("Wrong on all 44 draws; shown on the random draw 1")."""
    if everywhere and draws > 1:
        return f"Wrong on all {draws} draws; shown on {draw_phrase(label)}"
    return f"Exposed by {draw_phrase(label)}"


def shown_draw(failure: Failure, draws: int) -> str:
    """`exposing` for a failure's draw."""
    return exposing(failure.draw_label, failure.everywhere, draws)


def _oracle_line(v: Verdict) -> Text:
    """Which oracles the answer was compared with, and which of them it disagrees with."""
    line = Text("compared with: ", style="dim")
    for k, check in enumerate(v.oracles):
        if k:
            line.append(" · ", style="dim")
        if check.agrees is None:
            line.append(f"{check.name}: not compared ({check.note})", style="dim")
        else:
            line.append(f"{check.name} ")
            line.append("agrees" if check.agrees else "disagrees", style="green" if check.agrees else "red")
    return line


def summary_table(
    verdicts: Sequence[Verdict], points: dict[str, int] | None = None, badges: Mapping[str, int] | None = None
) -> Table:
    """A table of every verdict, with a totals caption; a one-line answer's status carries `★`."""
    table = Table(title="jacpuzzles check", title_justify="left", show_edge=False)
    table.add_column("puzzle")
    table.add_column("status")
    if points is not None:
        table.add_column("points", justify="right")
    table.add_column("message", overflow="fold")
    for v in verdicts:
        status = Text(f"{STATUS_MARK[v.status]} {v.status.value}", style=STATUS_STYLE[v.status])
        if badges and v.puzzle in badges:
            status.append(f" {BADGE}", style="yellow")
        row: list[str | Text] = [v.puzzle, status]
        if points is not None:
            got = points.get(v.puzzle, 0) if v.passed else 0
            row.append(f"{got}/{points.get(v.puzzle, 0)}")
        row.append(Text(v.message))  # never markup: "[d f / d x]" is text
        table.add_row(*row)
    counts = Counter(v.status for v in verdicts)
    table.caption = "  ".join(f"{s.value}: {counts.get(s, 0)}" for s in Status)
    if points is not None:
        earned = sum(points.get(v.puzzle, 0) for v in verdicts if v.passed)
        table.caption += f"  ·  points: {earned}/{sum(points.get(v.puzzle, 0) for v in verdicts)}"
    table.caption_justify = "left"
    return table


def render(
    verdicts: Sequence[Verdict],
    console: Console,
    points: dict[str, int] | None = None,
    badges: Mapping[str, int] | None = None,
    seed: bool = True,
) -> None:
    """Print a check's outcome: details for each puzzle that did not pass, then the summary.

    `badges` maps a puzzle to the columns of its one-line answer (the original challenge's badge);
    `seed=False` leaves the draws' seed out (the grader's feedback).
    """
    if len(verdicts) == 1:
        console.print(VerdictView(verdicts[0], (badges or {}).get(verdicts[0].puzzle), seed))
        return
    for v in verdicts:
        if v.status in (Status.FAIL, Status.ERROR):
            console.print(VerdictView(v, seed=seed))
            console.print()
    console.print(summary_table(verdicts, points, badges))


def to_json(
    verdicts: Iterable[Verdict], points: dict[str, int] | None = None, badges: Mapping[str, int] | None = None
) -> dict[str, Any]:
    """The `--json` document: `results` (one per puzzle) and `summary` (counts per status).

    With `badges`, each result has `one_line`: the columns of a passing one-line answer, or null.
    """
    results = []
    for v in verdicts:
        entry: dict[str, Any] = {
            "puzzle": v.puzzle,
            "status": v.status.value,
            "message": v.message,
            "diagnoses": [{"kind": d.kind.value, "message": d.message} for d in v.diagnoses],
            "location": v.location,
            "path": v.path,
            "seed": v.seed,
            "draws": v.draws,
            "output": v.output,
            "oracles": [{"name": c.name, "agrees": c.agrees, "note": c.note} for c in v.oracles],
        }
        if points is not None:
            entry["points"] = points.get(v.puzzle, 0) if v.passed else 0
            entry["max_points"] = points.get(v.puzzle, 0)
        if badges is not None:
            entry["one_line"] = badges.get(v.puzzle)
        if v.failure is not None:
            entry["draw"] = {
                "label": v.failure.draw_label,
                **{k: unsigned(a).tolist() for k, a in v.failure.draw.items()},
            }
            entry["wrong_entries"] = v.failure.wrong_count
            entry["wrong_on_every_draw"] = v.failure.everywhere
        results.append(entry)
    counts = Counter(r["status"] for r in results)
    return {"results": results, "summary": {s.value: counts.get(s.value, 0) for s in Status}}
