"""Reports rendered to a string, as a learner's terminal would show them."""

from __future__ import annotations

import io
import re

import numpy as np
from rich.console import Console
from rich.text import Text

from checker import Status, check_answer
from checker.engine._report import Heatmap, VerdictView, _SideBySide, compact, render, summary_table, to_json


def _text(renderable, width: int = 160) -> str:  # type: ignore[no-untyped-def]
    console = Console(file=io.StringIO(), width=width, color_system=None, highlight=False)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined]


def test_compact_numbers_fit_four_characters() -> None:
    cases = {
        0.0: "·",
        1.0: "1",
        -0.5: "-.5",
        0.05: ".05",
        20.0: "20",
        1 / 3: ".33",
        1500.0: "1500",
        12345.0: "1e4",
        1e-5: "1e-5",
        -2.5e-7: "-2e-7",
        9.96e-8: "1e-7",  # rounds up to the next power of ten, never "10e-8"
        -0.00999: "-1e-2",
        99999.0: "1e5",
    }
    for value, text in cases.items():
        assert compact(value) == text, value
        assert len(text) <= 5


def test_a_failure_shows_both_heatmaps_the_draw_and_marks_wrong_entries() -> None:
    i = np.arange(10)
    verdict = check_answer("cumsum", lambda x: (i >= i[:, None]) / 20)
    out = _text(VerdictView(verdict))
    assert "✘ cumsum: FAIL" in out
    assert "the Jacobian is transposed" in out
    # Wrong on every draw: no draw "exposes" it; the simplest one is shown.
    assert f"Wrong on all {verdict.draws} draws; shown on the draw with two zero entries (seed 0):" in out
    assert "Exposed by" not in out
    assert "x = [" in out
    assert "expected the Jacobian (10, 10)" in out and "yours (90 wrong)" in out
    assert out.count("*") >= 90


def test_higher_rank_jacobians_are_drawn_as_labelled_2d_grids() -> None:
    expected = np.zeros((4, 4, 4, 4))
    for a in range(4):
        for b in range(4):
            expected[a, b, a, b] = 1
    out = _text(Heatmap("view", expected, 2))
    lines = out.splitlines()
    assert "0,0" in lines[1] and "3,3" in lines[1]  # column labels: input multi-indices
    assert lines[2].lstrip().startswith("0,0")  # row labels: output multi-indices
    assert len(lines) == 2 + 16


def test_a_large_jacobian_shows_a_window_around_the_wrong_entry() -> None:
    big = np.zeros((40, 40))
    wrong = np.zeros((40, 40), dtype=bool)
    wrong[30, 35] = True
    out = _text(Heatmap("big", big, 1, wrong, focus=(30, 35)))
    assert "showing output entries 16-39 of 40, input entries 16-39 of 40" in out
    assert "*" in out


def test_two_heatmaps_stand_side_by_side_when_they_fit_and_stack_when_they_do_not() -> None:
    left = Heatmap("expected", np.eye(3), 1)
    right = Heatmap("yours (1 wrong)", np.eye(3) * 2, 1, np.eye(3, dtype=bool) & (np.arange(3) == 1))
    wide = _text(_SideBySide([left, right]), width=80).splitlines()
    assert wide[0].startswith("expected") and "yours (1 wrong)" in wide[0]
    assert wide[0].index("yours") == left.width + 4  # the right map starts one gap after the left one
    assert len(wide) == 2 + 3 and wide[3].endswith(" 2*·")
    narrow = _text(_SideBySide([left, right]), width=left.width + right.width + 3).splitlines()
    assert narrow[0] == "expected" and narrow[5] == "" and narrow[6] == "yours (1 wrong)"
    assert len(narrow) == 2 * (2 + 3) + 1


def test_a_heatmap_wider_than_the_console_shows_fewer_columns_around_the_wrong_entry() -> None:
    big = np.full((6, 40), 123.0)
    wrong = np.zeros((6, 40), dtype=bool)
    wrong[2, 33] = True
    out = _text(Heatmap("wide", big, 1, wrong, focus=(2, 33)), width=60).splitlines()
    assert all(len(line) <= 60 for line in out)  # no row wrapped under the wrong labels
    assert "33" in out[1].split() and out[4].count("*") == 1  # the wrong entry stays in view
    assert out[-1].startswith("showing input entries") and out[-1].endswith("of 40")
    assert len(out) == 2 + 6 + 1


def test_coloured_and_plain_heatmaps_show_the_same_characters() -> None:
    grid = np.array([[1.0, -2.0, 0.0], [np.nan, 0.5, 3.0]])
    heatmap = Heatmap("h", grid, 1, np.array([[True, False, False], [False, False, True]]))
    coloured = Console(file=io.StringIO(), width=80, color_system="truecolor", force_terminal=True)
    coloured.print(heatmap)
    plain = _text(heatmap, width=80)
    assert "\x1b[" in coloured.file.getvalue()  # type: ignore[attr-defined]
    assert Text.from_ansi(coloured.file.getvalue()).plain == plain  # type: ignore[attr-defined]


def test_summary_table_counts_and_points() -> None:
    i = np.arange(10)
    verdicts = [check_answer("neg", lambda x: -1.0 * (i == i[:, None])), check_answer("cumsum", lambda x: i)]
    out = _text(summary_table(verdicts, {"neg": 1, "cumsum": 2}))
    assert "neg" in out and "1/1" in out and "0/2" in out
    assert "pass: 1  fail: 1  error: 0  todo: 0  ·  points: 1/3" in out


def test_many_verdicts_render_details_for_failures_and_a_summary() -> None:
    i = np.arange(10)
    verdicts = [
        check_answer("neg", lambda x: -1.0 * (i == i[:, None])),
        check_answer("cumsum", lambda x: (i <= i[:, None]) * 1.0),
    ]
    console = Console(file=io.StringIO(), width=120, color_system=None)
    render(verdicts, console)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "✘ cumsum: FAIL" in out and "✔ pass" in out and "jacpuzzles check" in out
    assert "✘ neg" not in out  # a passing puzzle gets a table row, not a report


def test_json_document_has_the_stable_fields() -> None:
    verdict = check_answer("neg", lambda x: np.eye(10))
    doc = to_json([verdict])
    assert set(doc) == {"results", "summary"}
    assert doc["summary"] == {"pass": 0, "fail": 1, "error": 0, "todo": 0}
    entry = doc["results"][0]
    assert entry["puzzle"] == "neg" and entry["status"] == Status.FAIL.value and entry["message"]
    assert entry["diagnoses"][0]["kind"] == "sign"
    assert entry["draw"]["label"] == "two zero entries" and len(entry["draw"]["x"]) == 10


def test_a_mistake_on_some_draws_only_names_the_draw_that_exposed_it() -> None:
    i = np.arange(10)
    verdict = check_answer("neg", lambda x: -1.0 * (i == i[:, None]) * (np.abs(x) < 50))
    out = _text(VerdictView(verdict))
    assert "Exposed by the draw with two zeros among large magnitudes (seed 0):" in out
    assert "Wrong on all" not in out
    assert to_json([verdict])["results"][0]["wrong_on_every_draw"] is False


def test_a_mistake_on_every_draw_names_no_exposing_input() -> None:
    # Not "Exposed by the two zero entries" for answers wrong everywhere (sign, shape).
    for name, answer in [("neg", lambda x: np.eye(10)), ("prod", lambda x: np.ones(10))]:
        verdict = check_answer(name, answer)
        out = _text(VerdictView(verdict))
        assert "Exposed by" not in out, name
        assert f"Wrong on all {verdict.draws} draws; shown on the draw with two zero entries (seed 0):" in out, name
        assert to_json([verdict])["results"][0]["wrong_on_every_draw"] is True


def test_every_draw_label_reads_as_a_noun_phrase() -> None:
    # Not "Exposed by the within 1e-05 of the low end of the domain".
    from checker.engine._catalog import puzzles
    from checker.engine._sampling import draws
    from checker.engine._verdict import draw_phrase

    labels = {d.label for p in puzzles() for d in draws(p, 0)}
    for label in labels:
        phrase = draw_phrase(label)
        assert phrase.startswith(
            ("the draw with ", "the random draw ", "the integer draw ", "the half-integer draw ")
        ), label
        parts = (
            re.split(r" and (?!\d)", phrase.removeprefix("the draw with "))
            if phrase.startswith("the draw with ")
            else []
        )
        for part in parts:  # split at " and ", but not in "between 0.1 and 1"
            first = part.split(" ")[0]
            assert first not in ("the", "within", "above", "below", "all"), phrase  # "with within 1e-05 of ..."
            assert not first[0].isdigit(), phrase  # "with 1e-14 above an integer"
        assert "the the " not in phrase and ";" not in phrase, phrase
    assert (
        draw_phrase("within 1e-05 of the low end of the domain")
        == "the draw with entries within 1e-05 of the low end of the domain"
    )
    assert draw_phrase("two zero entries") == "the draw with two zero entries"
    assert draw_phrase("zero entry (x)") == "the draw with a zero entry in x"
    assert draw_phrase("random draw 3") == "the random draw 3"
    assert draw_phrase("integer draw 2 (index)") == "the integer draw 2 of index"
    assert draw_phrase("arr: two zero entries; index: 1e-14 below an integer") == (
        "the draw with two zero entries in arr and entries 1e-14 below an integer in index"
    )
    assert draw_phrase("y equal to -x[0]") == "the draw with y equal to -x[0]"


def test_counts_agree_with_their_nouns() -> None:
    from checker.engine._verdict import counted, out_of

    assert [counted(n, "entry") for n in (0, 1, 2)] == ["0 entries", "1 entry", "2 entries"]
    assert counted(1, "point") == "1 point" and counted(3, "point") == "3 points" and counted(2, "day") == "2 days"
    assert [out_of(0, 1), out_of(1, 1), out_of(3, 40), out_of(2.5, 4)] == [
        "0/1 point",
        "1/1 point",
        "3/40 points",
        "2.5/4 points",
    ]


# The answer `attacks/ansi-forge` (it prints this, then returns zeros), and
# one whose exception carries an OSC 8 link, an OSC 52 clipboard write and a carriage return.
FORGE = ('import jax.numpy as np\n'
         r'print("\x1b[2J\x1b[3J\x1b[Hforge: 5/5 points\n prod | pass | 2/2\x1b[8m", end="")' '\n'
         'def jac(x): return np.zeros((10, 10))\n')
RAISES = (
    "def jac(x):\n"
    r'    raise ValueError("\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\ \x1b]52;c;ZXZpbA==\x07\rall '
    r'fine\x08")'
    "\n"
)


def test_printable_shows_control_characters_as_escapes_and_keeps_newlines_and_tabs() -> None:
    from checker.engine._report import printable

    assert (
        printable("a\x1b[2Jb\r\x08\x00\x07\x7f\x9b\u202e\tc\nd é")
        == "a\\x1b[2Jb\\x0d\\x08\\x00\\x07\\x7f\\x9b\\u202e\tc\nd é"
    )


def test_an_answer_printing_or_raising_escapes_cannot_rewrite_the_learners_terminal(tmp_path: object) -> None:
    from pathlib import Path

    from checker import check_files

    assert isinstance(tmp_path, Path)
    (tmp_path / "forge").mkdir()
    (tmp_path / "forge" / "cumsum.py").write_text(FORGE)
    (tmp_path / "raises").mkdir()
    (tmp_path / "raises" / "cumsum.py").write_text(RAISES)
    forged, raised = check_files(
        [("cumsum", tmp_path / "forge" / "cumsum.py"), ("cumsum", tmp_path / "raises" / "cumsum.py")]
    )
    assert forged.status is Status.FAIL and raised.status is Status.ERROR
    for verdict in (forged, raised):
        texts = [verdict.message, verdict.output, verdict.location or "", *(d.message for d in verdict.diagnoses)]
        assert not any(c in t for t in texts for c in "\x1b\x07\x08\r"), texts
    assert forged.output.startswith("\\x1b[2J\\x1b[3J\\x1b[Hforge: 5/5 points")
    assert (
        "\\x1b]8;;https://evil.example\\x1b\\click" in raised.message and "\\x1b]52;c;ZXZpbA==\\x07" in raised.message
    )
    console = Console(file=io.StringIO(), width=120, force_terminal=True, color_system="truecolor")
    render([forged, raised], console)
    out = console.file.getvalue()
    assert isinstance(out, str)
    # rich's own escapes only (colours: ESC[...m); none of the answer's
    assert re.sub(r"\x1b\[[0-9;]*m", "", out).count("\x1b") == 0 and "\x07" not in out and "\r" not in out
    assert "forge: 5/5 points" in out and "\\x1b[2J" in out
    assert "\x1b" not in str(to_json([forged, raised]))


def test_no_negative_zero_is_printed() -> None:
    # `-np.eye(10) * (x > 0)` is -0.0 wherever x <= 0: shown beside -1 it reads as a sign error.
    verdict = check_answer("neg", lambda x: -np.eye(10) * (x > 0))
    assert verdict.status is Status.FAIL
    negative_zero = re.compile(r"(?<![\w.])-0(?![.\d]*[1-9e])")
    out = _text(VerdictView(verdict))
    assert "yours 0, expected -1" in out
    assert not negative_zero.search(out), out
    assert not any(negative_zero.search(d.message) for d in verdict.diagnoses)
    assert not re.search(r"-0\.0(?![\d])", str(to_json([verdict])))
