"""CI autograding front-ends: one submission graded for GitHub Classroom or Gradescope, and the
`--fail-under` threshold that turns a score into a CI exit code.

The grading itself is `_grade.grade_one`, the class grader's out-of-process grading of one
folder. Everything else here is a pure function of the submission's document (the
`<submission>.json` the grader journals) into a platform's format, plus the few lines that write
it where the platform reads it:

- GitHub Classroom's reporter (`classroom-resources/autograding-grading-reporter`) reads, for each
  runner id in its `runners` input, the environment variable `<ID>_RESULTS`: a base64-encoded
  JSON object `{"version": 1, "status", "max_score", "tests": [...]}`, the step output `result`
  of a grader step. It posts the sum of the tests' `score` to Classroom as a notice annotation
  (`Points T/M`), unless `max_score` is 0, and fails the job when `status` is `fail` or `error`.
- Gradescope reads `/autograder/results/results.json`; a run that leaves no valid file there is
  shown as "The autograder failed to execute correctly", not scored.

docs/autograding.md says what each field holds and why.
"""

from __future__ import annotations

import argparse
import base64
import csv
import json
import os
import re
import stat
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from checker.engine._assignment import Assignment, BadSetup
from checker.engine._report import exposing
from checker.engine._verdict import counted, number, out_of
from checker.grading._grade import grade_one
from checker.grading._gradebook import (
    GRADED,
    commands_stopped,
    neutralised,
    print_neutralised,
    ungradable,
    write_atomic,
)
from checker.grading._sandbox import Limits

BELOW_THRESHOLD = 1  # --fail-under: the score is below it (the only cause of exit code 1)
UNGRADABLE = 3  # a single submission the grader could not grade: no score was produced
INTERRUPTED = 130
GRADESCOPE_ROOT = Path("/autograder")
CLASSROOM_STATUS = {"pass": "pass", "fail": "fail", "error": "error", "todo": "fail"}
# The reporter receives the result through one environment variable, and Linux refuses a single
# one over 128 KiB when it starts the reporter: stay well below.
CLASSROOM_RESULT_CAP = 96 * 1024  # characters of base64
MESSAGE_CAP = 1500  # characters of one puzzle's feedback, in either platform's output
OUTPUT_CAP = 600  # characters of what an answer printed, within its feedback
_SEED = re.compile(r" \(seed -?\d+\)")
# A CI log has no width of its own: lines are shown whole. rich assumes 80 columns when its output
# is not a terminal, which would re-wrap the report (written 100 columns wide) and break its grids.
LOG_WIDTH = 160


def puzzle_feedback(result: dict[str, Any]) -> str:
    """One puzzle's feedback as plain text, from its `check --json` result: status and points,
    each diagnosis, where it happened, the input that exposed it, what the answer printed."""
    status = result["status"]
    lines = [f"{result['puzzle']}: {status.upper()}, {out_of(result['points'], result['max_points'])}"]
    if status == "pass":
        lines.append(result["message"])
    else:
        diagnoses = result["diagnoses"] or [{"kind": status, "message": result["message"]}]
        lines += [f"- {d['message']} [{d['kind']}]" for d in diagnoses]
        if result.get("location"):
            lines.append(f"  at {result['location']}")
        draw = result.get("draw")
        if draw:
            lines.append(
                f"{exposing(draw['label'], bool(result.get('wrong_on_every_draw')), int(result.get('draws') or 0))}:"
            )
            lines += [f"  {arg} = {_values(value)}" for arg, value in draw.items() if arg != "label"]
    if result.get("path"):
        lines.append(f"File: {result['path']}")
    printed = result.get("output") or ""
    if printed:
        cut = (
            printed
            if len(printed) <= OUTPUT_CAP
            else printed[:OUTPUT_CAP] + f"… ({counted(len(printed) - OUTPUT_CAP, 'more character')})"
        )
        lines += ["Your answer printed:", cut]
    if status in ("fail", "error"):
        lines.append(f"See the full report (the Jacobians side by side): jacpuzzles check {result['puzzle']}")
    return _capped(_SEED.sub("", "\n".join(lines)))  # the seed may be the course staff's secret


def _values(value: Any) -> str:
    """An input, short: numbers to 3 significant digits, at most 12 of them."""
    flat = _flatten(value)
    shown = ", ".join(number(v, ".3g") if isinstance(v, float) else str(v) for v in flat[:12])
    more = f", … ({len(flat)} values)" if len(flat) > 12 else ""
    return f"[{shown}{more}]" if isinstance(value, list) else shown


def _flatten(value: Any) -> list[Any]:
    """The leaves of a nested list, in order."""
    if isinstance(value, list):
        return [leaf for item in value for leaf in _flatten(item)]
    return [value]


def _capped(text: str, cap: int = MESSAGE_CAP) -> str:
    return (
        text
        if len(text) <= cap
        else text[:cap] + f"… ({counted(len(text) - cap, 'more character')}: run jacpuzzles check for all of it)"
    )


# ---- GitHub Classroom ----


def classroom_result(doc: dict[str, Any]) -> dict[str, Any]:
    """The `result` GitHub Classroom's reporter reads: one test per puzzle with its own points.

    An ungradable submission gets `max_score` 0, so that the reporter posts no points (rather
    than a 0) and fails the job with the reason."""
    if doc["status"] != GRADED:
        reason = doc.get("reason") or "unknown"
        message = neutralised(
            f"NOT GRADED: the grader could not grade this repository: {reason}. This is not a score; ask your "
            "instructor."
        )
        test = {
            "name": "jacpuzzles",
            "status": "error",
            "score": 0,
            "message": message,
            "test_code": "",
            "filename": "",
            "line_no": 0,
        }
        return {"version": 1, "status": "error", "max_score": 0, "tests": [test]}
    tests = [
        {
            "name": r["puzzle"],
            "status": CLASSROOM_STATUS[r["status"]],
            "score": r["points"],
            # The reporter prints it into its own step's log: no line of it may be a workflow command.
            "message": neutralised(puzzle_feedback(r)),
            # Shown under each test by the reporter: how to see the whole report locally.
            "test_code": f"jacpuzzles check {r['puzzle']}",
            "filename": r["path"] or "",
            # The reporter prints " - line N" unless this is 0; a puzzle has no line.
            "line_no": 0,
        }
        for r in doc["results"]
    ]
    status = "pass" if all(r["status"] == "pass" for r in doc["results"]) else "fail"
    return {"version": 1, "status": status, "max_score": doc["max_score"], "tests": tests}


def encode_classroom(result: dict[str, Any]) -> str:
    """The result as the reporter decodes it: base64 of its JSON text. Past the size an
    environment variable can hold, each test's message is cut to its first line."""
    encoded = _base64(result)
    if len(encoded) > CLASSROOM_RESULT_CAP:
        short = [{**t, "message": t["message"].split("\n", 1)[0]} for t in result["tests"]]
        encoded = _base64({**result, "tests": short})
    return encoded


def _base64(result: dict[str, Any]) -> str:
    # ASCII JSON: a lone surrogate an answer printed travels as a `\udcff` escape.
    return base64.b64encode(json.dumps(result).encode("ascii")).decode("ascii")


def github_classroom(
    directory: Path,
    limits: Limits,
    seed: int,
    fail_under: float | None,
    console: Console,
    progress: Console,
    assignment: Assignment | None = None,
    environ: Mapping[str, str] = os.environ,
    trust: bool = False,
) -> int:
    """Grade the repository checked out in `directory` and append `result=<base64>` to the file
    named by `$GITHUB_OUTPUT`; returns the exit code."""
    target = environ.get("GITHUB_OUTPUT", "")
    if not target:
        raise BadSetup(
            "GITHUB_OUTPUT is not set: --github-classroom writes its result to the file named by $GITHUB_OUTPUT, "
            "which GitHub Actions sets in every step; to try it outside Actions, set it: GITHUB_OUTPUT=result.txt "
            "jacpuzzles grade --github-classroom"
        )
    try:
        with open(target, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise BadSetup(
            f"cannot append to GITHUB_OUTPUT={target}: {exc.strerror or exc}; point it at a writable file"
        ) from None
    student = None
    if assignment is not None and assignment.variants:
        student = classroom_student(environ, assignment)
        if student is None:
            raise BadSetup(
                "variants are on, but the student could not be told from GITHUB_REPOSITORY (`<assignment>-<login>`) or "
                "GITHUB_ACTOR: "
                'list each student\'s GitHub login in the assignment\'s [students] table (`"login" = "student-id"`)'
            )
        if on_roster([student], assignment) is None:
            reason = unmatched(f"GitHub login {student}", student, assignment)
            doc = ungradable(_name(directory), "", reason, assignment.points())
            _append_result(target, doc)
            print_neutralised(console, Text(f"NOT GRADED: {reason}", style="bold red"))
            return UNGRADABLE
    # What an answer printed, names and messages reach the runner's log only inside a block of
    # stopped commands (grade_one neutralises each line of it too); the kit's closing line follows.
    with commands_stopped(console.file):
        if student is not None and assignment is not None:
            print_neutralised(
                console, Text(f"grading the variants of student {assignment.student_id(student)}", style="dim")
            )
        with tempfile.TemporaryDirectory(prefix="jacpuzzles-classroom-") as out:
            doc = grade_one(
                directory,
                _name(directory),
                Path(out),
                limits,
                seed,
                console,
                progress,
                assignment,
                student,
                trust=trust,
            )
    _append_result(target, doc)
    console.print(
        Text(f"wrote the Classroom result ({_score(doc)}) to $GITHUB_OUTPUT as the step output `result`", style="dim")
    )
    return _exit_code(doc, fail_under, console)


def _append_result(target: str, doc: dict[str, Any]) -> None:
    """Append the reporter's `result=` line to the file `$GITHUB_OUTPUT` names; a BadSetup when
    it cannot be written (a full disk: red team RT31 met a traceback)."""
    try:
        with open(target, "a", encoding="utf-8") as f:
            f.write(f"result={encode_classroom(classroom_result(doc))}\n")
    except OSError as exc:
        raise BadSetup(f"cannot append the result to GITHUB_OUTPUT={target}: {exc.strerror or exc}; the grade was not "
                       "recorded: free space on the runner, then re-run the job") from None


# ---- Gradescope ----


def gradescope_results(doc: dict[str, Any], seconds: float) -> dict[str, Any] | None:
    """Gradescope's `results.json` for a graded submission: one test per puzzle with its own
    points and feedback; None for an ungradable one (any results.json would be a score)."""
    if doc["status"] != GRADED:
        return None
    counts = {s: sum(r["status"] == s for r in doc["results"]) for s in ("pass", "fail", "error", "todo")}
    summary = (
        f"{out_of(doc['score'], doc['max_score'])}. Puzzles: " + ", ".join(f"{n} {s}" for s, n in counts.items()) + "."
    )
    tests = [
        {
            "name": r["puzzle"],
            "score": r["points"],
            "max_score": r["max_points"],
            "status": "passed" if r["status"] == "pass" else "failed",
            "output": puzzle_feedback(r),
            "output_format": "text",
            "visibility": "visible",
            "extra_data": {"jacpuzzles_status": r["status"], "diagnoses": [d["kind"] for d in r["diagnoses"]]},
        }
        for r in doc["results"]
    ]
    results: dict[str, Any] = _unicode_only({
        "score": doc["score"],
        "execution_time": max(1, round(seconds)),
        "output": summary,
        "output_format": "text",
        "test_output_format": "text",
        "test_name_format": "text",
        "visibility": "visible",
        # stdout holds the full report (without the seed, as all feedback): for the course staff only.
        "stdout_visibility": "hidden",
        "tests": tests,
    })
    return results


_SURROGATE = re.compile("[\ud800-\udfff]")


def _unicode_only(value: Any) -> Any:
    """`value` with every string's lone surrogates (undecodable bytes an answer printed or a file
    name held) replaced by U+FFFD: JSON any strict parser reads, as UTF-8."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {_unicode_only(k): _unicode_only(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_unicode_only(v) for v in value]
    return value


def gradescope(root: Path, limits: Limits, seed: int, fail_under: float | None, console: Console, progress: Console,
               assignment: Assignment | None = None, trust: bool = False) -> int:
    """Grade `root/submission` and write `root/results/results.json`; returns the exit code.
    `trust`: grade even where the submission cannot be confined (`--trust-submissions`)."""
    submission, results = root / "submission", root / "results"
    if not submission.is_dir():
        raise BadSetup(
            f"no submission folder {submission}: --gradescope grades the files Gradescope puts in "
            "/autograder/submission; "
            "to try it elsewhere, pass --gradescope-root DIR, a folder holding submission/"
        )
    target = results / "results.json"
    try:
        results.mkdir(parents=True, exist_ok=True)
        target.unlink(missing_ok=True)  # a stale file would be read as this run's score
    except OSError as exc:
        raise BadSetup(f"cannot write {target}: {exc.strerror or exc}; the results folder must be writable") from None
    student = None
    if assignment is not None and assignment.variants:
        known = gradescope_identities(root)
        if not known:
            raise BadSetup(
                f"variants are on, but {root / 'submission_metadata.json'} names no student (users[0].email, sid or "
                "id): "
                "Gradescope writes it for every submission; to try it elsewhere, put one in --gradescope-root"
            )
        student = on_roster(known, assignment)
        if student is None:
            reason = unmatched("Gradescope's " + ", ".join(known), known[0], assignment)
            # The one results.json without a grade: Gradescope shows students only its `output`.
            write_atomic(target, json.dumps(not_graded_results(reason), indent=2) + "\n")
            console.print(
                Text(
                    f"NOT GRADED: {reason} {target} says so to the student, with score 0, which is not a grade.",
                    style="bold red",
                )
            )
            return UNGRADABLE
        console.print(Text(f"grading the variants of student {assignment.student_id(student)}", style="dim"))
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="jacpuzzles-gradescope-") as out:
        doc = grade_one(submission, "submission", Path(out), limits, seed, console, progress, assignment, student,
                        trust=trust)
    written = gradescope_results(doc, time.monotonic() - start)
    if written is None:
        console.print(
            Text(
                f"NOT GRADED: {doc.get('reason') or 'unknown'}. No results.json was written, so Gradescope shows "
                '"The autograder failed to execute correctly" instead of a score (never a 0): fix the cause, then '
                're-run the autograder on this submission.',
                style="bold red",
            )
        )
        return UNGRADABLE
    write_atomic(target, json.dumps(written, indent=2) + "\n")
    console.print(Text(f"wrote {target} ({_score(doc)})", style="dim"))
    return _exit_code(doc, fail_under, console)


# ---- who the student is (variants on) ----

METADATA_CAP = 1024 * 1024  # bytes of Gradescope's submission_metadata.json read


def gradescope_identities(root: Path) -> list[str]:
    """What Gradescope's `submission_metadata.json` in `root` calls the submitting student: the
    first user's `email`, `sid` and `id`, those present, in that order (a group submission is
    graded on its first member's variants); [] when the file or the fields are missing. Written
    by Gradescope, not the student."""
    try:
        # Non-blocking: a FIFO in its place must not hang the grader (red team RT31); a regular
        # file reads as usual.
        descriptor = os.open(root / "submission_metadata.json", os.O_RDONLY | os.O_NONBLOCK)
        with open(descriptor, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                return []
            meta = json.loads(f.read(METADATA_CAP + 1)[:METADATA_CAP].decode("utf-8"))
    except (OSError, ValueError, RecursionError):  # RecursionError: arrays nested 100000 deep
        return []
    users = meta.get("users") if isinstance(meta, dict) else None
    first = users[0] if isinstance(users, list) and users and isinstance(users[0], dict) else {}
    found = []
    for field in ("email", "sid", "id"):
        value = first.get(field)
        if (
            isinstance(value, (str, int))
            and not isinstance(value, bool)
            and str(value).strip()
            and str(value).isprintable()  # a lone surrogate, a line separator: nobody's id
        ):
            found.append(str(value).strip())
    return list(dict.fromkeys(found))



def gradescope_student(root: Path, assignment: Assignment | None = None) -> str | None:
    """The submitting student as the roster knows them (`on_roster`), or without a roster the
    first of `gradescope_identities`; None when there is none to go by."""
    return on_roster(gradescope_identities(root), assignment)


def on_roster(known: list[str], assignment: Assignment | None) -> str | None:
    """The first of `known` (what a platform calls the student) that the assignment's roster
    lists, as a submission name or as a student id (case aside for both; the roster's spelling
    is returned); with no roster, the first of `known`. None when the roster lists none of them:
    graded on its variants, the student would get variants nobody gave them."""
    roster = assignment.students if assignment is not None else ()
    if not roster:
        return known[0] if known else None
    names = {name.casefold(): name for name, _ in roster}
    ids = {student.casefold(): student for _, student in roster if student.casefold() not in names}
    # A roster name first: it maps to its id; an id itself is taken as it is.
    return next((table[k.casefold()] for table in (names, ids) for k in known if k.casefold() in table), None)


def unmatched(what: str, example: str, assignment: Assignment) -> str:
    """Why a student the roster does not list is not graded, and what fixes it."""
    return (
        f"this assignment gives each student their own variants, and the student here ({what}) is not on its roster "
        f"([students] in the assignment file lists {counted(len(assignment.students), 'student')}, not this one): "
        "graded, the answers "
        "would be judged against variants that are not this student's, so nothing was graded. To fix it, the "
        "instructor adds "
        f'`"{example}" = "STUDENT-ID"` to [students] (STUDENT-ID: the id the student gave `jacpuzzles init --student`) '
        "and re-runs the autograder on this submission."
    )


def not_graded_results(reason: str) -> dict[str, Any]:
    """Gradescope's `results.json` for a submission that was not graded because of who it is:
    the reason in the `output` students see, score 0 (Gradescope needs one), no tests."""
    return {
        "score": 0,
        "output": f"NOT GRADED: {reason} The 0 shown is not a grade.",
        "output_format": "text",
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": [],
        "extra_data": {"jacpuzzles_status": "not graded", "reason": reason},
    }


def classroom_student(environ: Mapping[str, str], assignment: Assignment | None = None) -> str | None:
    """The student of a GitHub Classroom repository: Classroom names it `<assignment>-<login>`
    (GITHUB_REPOSITORY is `owner/<assignment>-<login>`). An assignment's name may hold hyphens,
    and so may a login, so the login is the repository name's ending that is GITHUB_ACTOR
    (the student pushing), else a login of the roster; with no repository, GITHUB_ACTOR. None
    when neither tells (an instructor's or a bot's push to an unlisted student's repository)."""
    repository = environ.get("GITHUB_REPOSITORY", "").rpartition("/")[2].strip()
    actor = environ.get("GITHUB_ACTOR", "").strip()
    if not repository:
        return actor if actor and not actor.endswith("[bot]") else None
    if actor and repository.lower().endswith("-" + actor.lower()):
        return repository[len(repository) - len(actor):]
    roster = sorted(
        (name for name, _ in (assignment.students if assignment is not None else ())), key=len, reverse=True
    )
    return next((name for name in roster if repository.lower().endswith("-" + name.lower())), None)


# ---- the command line's part ----


def log_console(console: Console, environ: Mapping[str, str] = os.environ) -> Console:
    """`console`, or one as wide as a CI log can show when it writes to a log (GitHub Actions, a
    file, a pipe) rather than to a terminal a person reads: nothing of the report is re-wrapped."""
    try:
        terminal = os.isatty(console.file.fileno())
    except (AttributeError, OSError, ValueError):  # io.StringIO and the like: no descriptor
        terminal = False
    if (terminal and environ.get("GITHUB_ACTIONS") != "true") or console.width >= LOG_WIDTH:
        return console
    return Console(file=console.file, width=LOG_WIDTH, highlight=False, soft_wrap=False,
                   force_terminal=console.is_terminal, color_system=console.color_system)  # type: ignore[arg-type]


def run(
    args: argparse.Namespace,
    limits: Limits,
    seed: int,
    console: Console,
    progress: Console,
    assignment: Assignment | None = None,
) -> int:
    """`jacpuzzles grade --github-classroom [DIR]` or `--gradescope`: check the combination of
    options, grade, write the platform's output; returns the exit code."""
    console = log_console(console)
    if args.github_classroom is not None and args.gradescope:
        raise BadSetup("--github-classroom and --gradescope grade for different platforms: pass one of them")
    mode = "--github-classroom" if args.gradescope is False else "--gradescope"
    extra = [
        flag
        for flag, value in (
            ("SUBMISSIONS", args.submissions),
            ("--out", args.out),
            ("--shard", getattr(args, "shard", None)),
        )
        if value is not None
    ]
    extra += ["--merge"] if getattr(args, "merge", False) else []
    if extra:
        raise BadSetup(
            f"{mode} grades one submission and writes where its platform reads: drop {' and '.join(extra)} (for "
            "grading a class)"
        )
    try:
        if args.gradescope:
            return gradescope(
                Path(args.gradescope_root),
                limits,
                seed,
                args.fail_under,
                console,
                progress,
                assignment,
                trust=bool(getattr(args, "trust_submissions", False)),
            )
        return github_classroom(
            Path(args.github_classroom),
            limits,
            seed,
            args.fail_under,
            console,
            progress,
            assignment,
            trust=bool(getattr(args, "trust_submissions", False)),
        )
    except KeyboardInterrupt:
        progress.print(Text("jacpuzzles: interrupted (Ctrl-C); no result was written", style="yellow"))
        return INTERRUPTED


def class_exit_code(out: Path, fail_under: float, console: Console) -> int:
    """`grade SUBMISSIONS --out OUT --fail-under S`: 1 when a submission of this run (the rows of
    `OUT/grades.csv`) scored below S or was ungradable, or when there was none; else 0."""
    with open(out / "grades.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    low = [r["submission"] for r in rows if r["score"] == "" or float(r["score"]) < fail_under]
    if not rows:
        console.print(Text(f"no submission was graded: that fails --fail-under {fail_under:g}", style="bold red"))
        return BELOW_THRESHOLD
    if low:
        console.print(
            Text(
                f"{len(low)} of {counted(len(rows), 'submission')} below --fail-under {fail_under:g} or ungradable: "
                f"{', '.join(low)}",
                style="bold red",
            )
        )
        return BELOW_THRESHOLD
    return 0


def _exit_code(doc: dict[str, Any], fail_under: float | None, console: Console) -> int:
    """0 when graded (whatever the score), 1 below `--fail-under`, 3 when ungradable."""
    if doc["status"] != GRADED:
        return UNGRADABLE
    if fail_under is not None and doc["score"] < fail_under:
        console.print(Text(f"score {_score(doc)} is below --fail-under {fail_under:g}", style="bold red"))
        return BELOW_THRESHOLD
    return 0


def _score(doc: dict[str, Any]) -> str:
    return "not graded" if doc["score"] is None else out_of(doc["score"], doc["max_score"])


def _name(directory: Path) -> str:
    """The submission's name, for the files the grader writes: the folder's, made file-safe."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", directory.resolve().name).strip("._")
    return name or "submission"
