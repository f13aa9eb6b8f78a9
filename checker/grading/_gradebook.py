"""The grader's outputs, from graded submissions as values: per-student JSON and feedback text,
`grades.csv`, `junit.xml`, `summary.md` and `summary.json`.

Nothing here grades: every fact comes from a submission's document (the `<submission>.json`
journal entry), so a re-run that grades nothing new writes byte-identical files. Every file is
written atomically (a temporary file, then a rename).
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
import secrets
import statistics
import tempfile
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from rich.console import Console
from rich.text import Text

from checker.engine._errors import JacpuzzlesError
from checker.engine._report import render, to_json
from checker.engine._verdict import Verdict, counted, out_of

GRADED = "graded"
UNGRADABLE = "ungradable"
SKIPPED = "skipped"  # an entry of SUBMISSIONS not graded under its name (reserved, shared...): a row, no file
TOP_DIAGNOSES = 3  # per puzzle, in the summary
# Characters XML 1.0 cannot hold, whatever the escaping: control characters, surrogates, U+FFFE/F.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
JUNIT_TEXT_CAP = 8000  # characters of a message or output kept in junit.xml


def graded(name: str, key: str, verdicts: Sequence[Verdict], points: dict[str, int], setup: str = "") -> dict[str, Any]:
    """The document of a graded submission: score, maximum and `check --json`'s results (without
    the seed: the document is sent to the student). `setup` is a digest of the seed, puzzles and
    limits, for `--merge` to refuse entries graded differently."""
    results = to_json(verdicts, points)["results"]
    for r in results:
        r.pop("seed", None)
    return {
        "submission": name,
        "status": GRADED,
        "score": sum(r["points"] for r in results),
        "max_score": sum(points[v.puzzle] for v in verdicts),
        "key": key,
        "setup": setup,
        "results": results,
    }


def ungradable(name: str, key: str, reason: str, points: dict[str, int], setup: str = "") -> dict[str, Any]:
    """The document of a submission the grader could not grade: no score (not 0), and why."""
    return {"submission": name, "status": UNGRADABLE, "score": None, "max_score": sum(points.values()), "key": key,
            "setup": setup,
            "reason": reason, "results": []}


def skipped(name: str, reason: str, points: dict[str, int]) -> dict[str, Any]:
    """The row of an entry of SUBMISSIONS that was not graded (never written as a file)."""
    return {"submission": name, "status": SKIPPED, "score": None, "max_score": sum(points.values()), "reason": reason,
            "results": []}


def feedback(doc: dict[str, Any], verdicts: Sequence[Verdict] | None, points: dict[str, int]) -> str:
    """The feedback a student gets back: the check report as plain text, 100 columns wide."""
    console = Console(file=io.StringIO(), width=100, color_system=None, force_terminal=False, highlight=False,
                      emoji=False)
    if doc["status"] == UNGRADABLE or verdicts is None:
        console.print(Text(f"{doc['submission']}: ungradable: {doc.get('reason', '')}"))
        console.print(Text("This is not a score: the grader could not grade this submission. Ask your instructor."))
    else:
        console.print(Text(f"{doc['submission']}: {out_of(doc['score'], doc['max_score'])}"))
        console.print()
        render(verdicts, console, points, seed=False)
    if "student" in doc:  # variants on: each puzzle was graded on this student's own variant
        console.print()
        console.print(Text(f"student {doc['student']}: each puzzle was graded on your own variant:"))
        for name, label in doc.get("variants", {}).items():
            console.print(Text(f"  {name}: {label}"))
    if doc.get("flag"):
        console.print(Text(f"note: {doc['flag']} (the grade is not changed by this; your instructor may ask about it)"))
    out = console.file
    assert isinstance(out, io.StringIO)
    return "".join(line.rstrip() + "\n" for line in out.getvalue().splitlines())  # rich pads lines to the width


class CannotWrite(JacpuzzlesError):
    """A file of the results folder could not be written (a full disk, a read-only folder): what
    was graded before stays, and the same command carries on from there. Exit code 2, the grader
    could not do its job (1 is `--fail-under`'s: red team RT23)."""

    exit_code = 2


def write_atomic(path: Path, text: str) -> None:
    """Write `text` to `path` so that a reader (or a re-run after `kill -9`) sees all or nothing."""
    # A short temporary name: `.<name>.partial` of a 250-byte name would not fit a file name.
    try:
        _write_atomic(path, text)
    except OSError as exc:
        raise CannotWrite(f"cannot write {path}: {exc.strerror or exc}; free space on that file system (or give "
                          "--out a folder on another) and run the same command again: what was graded is kept, "
                          "and grading carries on from there") from None


def _write_atomic(path: Path, text: str) -> None:
    fd, partial = tempfile.mkstemp(prefix=".", suffix=".partial", dir=path.parent)
    try:
        # A learner's output may hold lone surrogates: kept as `\udcff` escapes, valid in JSON too.
        with open(fd, "w", encoding="utf-8", errors="backslashreplace", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(partial, 0o644)
        os.replace(partial, path)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise


def document_text(doc: dict[str, Any]) -> str:
    """A submission's document as it is stored."""
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def grades_csv(docs: Sequence[dict[str, Any]], names: Sequence[str]) -> str:
    """`submission, score, max_score`, points per puzzle, then `status` (graded, ungradable or
    skipped) and `reason` (why not graded). Every text cell is `cell`-neutralised: a name or
    reason a student chose is never a spreadsheet formula; and every text cell is quoted, so that
    a spreadsheet splitting lines at `;` (the list separator of many locales) keeps a name such as
    `x;=1+1` one cell that starts with `x` (red team, round 11)."""
    out = io.StringIO()
    # RFC 4180's line ends: the csv module then quotes a cell holding a carriage return too.
    writer = csv.writer(out, lineterminator="\r\n", quoting=csv.QUOTE_NONNUMERIC)
    ids = any("student" in doc for doc in docs)  # variants on: a student id column after the name
    writer.writerow(["submission", *(["student"] if ids else []), "score", "max_score", *names, "status", "reason"])
    for doc in docs:
        earned = {r["puzzle"]: r["points"] for r in doc["results"]}
        score = "" if doc["score"] is None else doc["score"]
        student = [doc.get("student", "")] if ids else []
        row = [doc["submission"], *student, score, doc["max_score"], *(earned.get(n, "") for n in names), doc["status"],
               doc.get("reason", "")]
        writer.writerow([cell(value) for value in row])
    return out.getvalue()


# OWASP's CSV-injection rule: a cell starting with one of these is read as a formula (or, for
# tab and carriage return, shifted onto one) by Excel, LibreOffice and Google Sheets.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


# A separator some spreadsheet splits a line at, followed by a formula's start (after spaces,
# which an import may trim): a cell there.
_FORMULA_AFTER_SEPARATOR = re.compile(r"([;,\t|] *)(?=[=+\-@\t\r])")


def cell(value: Any) -> Any:
    """A CSV cell a spreadsheet shows as text: a string starting with `=`, `+`, `-`, `@`, tab or
    carriage return gets a leading `'` (OWASP), and so does each part of it after a `;`, `,`,
    tab or `|` (where a spreadsheet of another locale, or one told so, splits the line: red team,
    round 11), spaces before it counted as nothing (an import that trims them: red team RT27's
    `" =1+1"`); numbers the kit computed stay numbers."""
    if not isinstance(value, str):
        return value
    value = _FORMULA_AFTER_SEPARATOR.sub(r"\1'", value)
    return "'" + value if value.lstrip(" ").startswith(_FORMULA_START) else value


def _clean(text: str | None, cap: int = JUNIT_TEXT_CAP) -> str:
    """Text XML can hold: invalid characters replaced, length capped."""
    cleaned = _NOT_XML.sub("\ufffd", text or "")
    return cleaned if len(cleaned) <= cap else cleaned[:cap] + f"… ({counted(len(cleaned) - cap, 'more character')})"


_JUNIT_TAG = {"fail": "failure", "error": "error", "todo": "skipped"}


def junit_xml(docs: Sequence[dict[str, Any]]) -> str:
    """One `testsuite` per submission, one `testcase` per puzzle (an ungradable submission: one
    `error` case saying why)."""
    suites = ET.Element("testsuites", name="jacpuzzles grade")
    for doc in docs:
        results = doc["results"]
        counts = Counter(r["status"] for r in results)
        name = _clean(str(doc["submission"]), 1000)
        suite = ET.SubElement(suites, "testsuite", name=name, tests=str(max(len(results), 1)),
                              failures=str(counts["fail"]), errors=str(counts["error"] + (doc["status"] == UNGRADABLE)),
                              skipped=str(counts["todo"] + (doc["status"] == SKIPPED)))
        if doc["status"] in (UNGRADABLE, SKIPPED):
            case = ET.SubElement(suite, "testcase", classname=name, name=doc["status"])
            outcome = "error" if doc["status"] == UNGRADABLE else "skipped"
            ET.SubElement(case, outcome, message=_clean(doc.get("reason")),
                          type=doc["status"]).text = _clean(doc.get("reason"))
        for r in results:
            case = ET.SubElement(suite, "testcase", classname=name, name=_clean(str(r["puzzle"]), 1000))
            tag = _JUNIT_TAG.get(r["status"])
            if tag is not None:
                kind = r["diagnoses"][0]["kind"] if r["diagnoses"] else r["status"]
                detail = "\n".join(f"[{d['kind']}] {d['message']}" for d in r["diagnoses"])
                ET.SubElement(case, tag, message=_clean(r["message"], 1000),
                              type=_clean(str(kind), 1000)).text = _clean(detail)
            if r.get("output"):
                ET.SubElement(case, "system-out").text = _clean(r["output"])
    ET.indent(suites)
    return ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"


# A GitHub Actions runner reads a workflow command from any line of a step's output that starts,
# after whitespace, with `::` (`::notice ...`, `::add-mask::`, `::stop-commands::`), and a legacy
# one wherever `##[` appears in a line; the log viewer also formats lines starting with `##[`
# (`##[group]`). What counts as a line break or as whitespace differs between the runner, its log
# viewer and whatever reads the log next (U+2028, NEL, a byte-order mark), so no `::` is left
# anywhere, not only at a line's start: a zero-width space goes between every two colons. U+200B
# is not whitespace to the runner, and shows as nothing.
_DOUBLE_COLON = re.compile(r":(?=:)")
_ZERO_WIDTH = "\u200b"


def neutralised(text: str) -> str:
    """`text` (what an answer printed, a name, a message) as lines a CI runner reads no command
    from: a zero-width space inside every `::` and every `##[`. Carriage returns count as line
    breaks, as the runner counts them."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _DOUBLE_COLON.sub(":" + _ZERO_WIDTH, text).replace("##[", "#" + _ZERO_WIDTH + "#[")


@contextlib.contextmanager
def commands_stopped(file: IO[str], token: str | None = None) -> Iterator[str]:
    """Everything written to the log `file` inside the block is read by a GitHub Actions runner
    as text, never as a workflow command: `::stop-commands::TOKEN` before it and `::TOKEN::`
    after, whatever happens inside. The token (yielded) is fresh for each block, so nothing an
    answer prints, written before it was drawn, can end the block early."""
    token = token or secrets.token_hex(16)
    file.write(f"::stop-commands::{token}\n")
    file.flush()
    try:
        yield token
    finally:
        file.write(f"::{token}::\n")
        file.flush()


def print_neutralised(console: Console, *renderables: Any) -> None:
    """Print `renderables` on `console` as it would, each line `neutralised`: a table or report
    holding names and output a student chose may be read by a CI runner (a class graded in CI)."""
    with console.capture() as captured:
        for renderable in renderables:
            console.print(renderable)
    console.file.write(neutralised(captured.get()))
    console.file.flush()


def summary(docs: Sequence[dict[str, Any]], names: Sequence[str],
            unlisted: Sequence[dict[str, str]] = ()) -> dict[str, Any]:
    """Score distribution, per-puzzle pass rates and most common diagnoses, over graded
    submissions; `unlisted`: the graded submissions a roster does not list, with a note each."""
    done = [d for d in docs if d["status"] == GRADED]
    scores = [d["score"] for d in done]
    per_puzzle = {}
    for name in names:
        results = [r for d in done for r in d["results"] if r["puzzle"] == name]
        kinds = Counter(k for r in results for k in dict.fromkeys(dg["kind"] for dg in r["diagnoses"]))
        per_puzzle[name] = {
            "graded": len(results),
            "pass_rate": round(sum(r["status"] == "pass" for r in results) / len(results), 4) if results else None,
            "statuses": dict(sorted(Counter(r["status"] for r in results).items())),
            "diagnoses": {k: n for k, n in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))},
        }
    flagged = {"flagged": [{"submission": d["submission"], "student": d.get("student", ""),
                            "flag": d["flag"]} for d in docs if d.get("flag")]}
    return {
        **(flagged if flagged["flagged"] else {}),
        **({"not_on_roster": list(unlisted)} if unlisted else {}),
        "submissions": len(docs),
        "graded": len(done),
        "ungradable": [{"submission": d["submission"], "reason": d.get("reason", "")} for d in docs
                       if d["status"] == UNGRADABLE],
        "skipped": [{"submission": d["submission"], "reason": d.get("reason", "")} for d in docs
                    if d["status"] == SKIPPED],
        "max_score": docs[0]["max_score"] if docs else 0,
        "scores": {
            "mean": round(statistics.fmean(scores), 4) if scores else None,
            "median": statistics.median(scores) if scores else None,
            "min": min(scores) if scores else None,
            "max": max(scores) if scores else None,
            "distribution": {str(s): n for s, n in sorted(Counter(scores).items())},
        },
        "puzzles": per_puzzle,
    }


# Characters that end a line or a Markdown paragraph, and control characters: shown as spaces
# or U+FFFD inside a code span, which can hold neither.
_LINE_BREAKS = re.compile("[\n\r\x0b\x0c\x85\u2028\u2029]")
_CONTROL = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff]")


def md(text: Any) -> str:
    """`text` (a name, id or message a student can choose) as a Markdown code span: shown as it
    is, with no heading, link, autolinked URL, image, emphasis or HTML of its own. The fence is
    one backtick longer than the longest run of backticks inside. For list items and prose: a
    table cell would split on a `|` even in code."""
    shown = _CONTROL.sub("\ufffd", _LINE_BREAKS.sub(" ", str(text)))
    if not shown:
        return "` `"  # CommonMark has no empty code span: a space stands for the empty text
    fence = "`" * (max((len(run) for run in re.findall("`+", shown)), default=0) + 1)
    # A space on both sides, stripped by the renderer, keeps a backtick at either end apart from the fence.
    pad = " " if shown[0] in "` " or shown[-1] in "` " else ""
    return f"{fence}{pad}{shown}{pad}{fence}"


def summary_markdown(s: dict[str, Any]) -> str:
    """The summary for people (and a CI job summary): what the class got right and wrong."""
    lines = ["# jacpuzzles grade: summary", ""]
    sc = s["scores"]
    skipped = s.get("skipped", [])
    lines.append(f"{s['graded']} of {counted(s['submissions'], 'submission')} graded; {len(s['ungradable'])} ungradable"
                 + (f"; {len(skipped)} skipped." if skipped else "."))
    if sc["mean"] is not None:
        lines.append(f"Scores out of {s['max_score']}: mean {sc['mean']:g}, median {sc['median']:g}, min {sc['min']}, "
                     f"max {sc['max']}.")
    lines += ["", "## Score distribution", "", "| score | submissions |", "| ---: | ---: |"]
    lines += [f"| {score} | {n} |" for score, n in sc["distribution"].items()]
    lines += ["", "## Per puzzle", "", "| puzzle | pass rate | most common diagnoses |", "| --- | ---: | --- |"]
    for name, p in s["puzzles"].items():
        rate = "-" if p["pass_rate"] is None else f"{p['pass_rate']:.0%}"
        common = ", ".join(f"{n / p['graded']:.0%} {kind}" for kind, n in list(p["diagnoses"].items())[:TOP_DIAGNOSES])
        lines.append(f"| {name} | {rate} | {common or '-'} |")
    if s["ungradable"]:
        lines += ["", "## Ungradable", ""]
        lines += [f"- {md(u['submission'])}: {md(u['reason'])}" for u in s["ungradable"]]
    if s.get("flagged"):
        lines += ["", "## Workspace records that do not match (scores unchanged; for you to look into)", ""]
        lines += [f"- {md(f['submission'])} (student {md(f['student'])}): {md(f['flag'])}" for f in s["flagged"]]
    if s.get("not_on_roster"):
        lines += ["", "## Not on the roster (graded under their own names; for you to look into)", ""]
        lines += [f"- {md(u['submission'])}: {md(u['note'])}" for u in s["not_on_roster"]]
    if skipped:
        lines += ["", "## Skipped (not graded: rename or remove the entry, then grade again)", ""]
        lines += [f"- {md(u['submission'])}: {md(u['reason'])}" for u in skipped]
    return "\n".join(lines) + "\n"
