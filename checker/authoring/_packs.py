"""Puzzle packs: an instructor's own chapter, in the format of the kit's own (`_catalog`).

A pack is a folder holding `pack.toml` (a `[chapter]` table and `[[puzzle]]` entries, exactly
as `checker/_data/autodiff.toml`) and the reference answers, `solutions/<chapter>/<name>.py`.
`new` makes one with a worked example; `check` does for a pack what `dev check` and the kit's
tests do for the kit's chapters, and returns each problem as one line naming the puzzle, the
field and what to change.
"""

from __future__ import annotations

import re
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console, ConsoleOptions, RenderResult
from rich.table import Table
from rich.text import Text

from checker.engine import _catalog, _stubs
from checker.engine._catalog import PACK_FILE, CatalogError, Puzzle
from checker.engine._errors import JacpuzzlesError
from checker.engine._verdict import Verdict, counted

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

CHECK_SEEDS = range(5)  # every reference answer passes on each of these
DENSE_SEEDS = range(5, 25)  # and on these too: about 20 times as many draws, each against jacfwd and jacrev


class PackExists(JacpuzzlesError):
    """`pack new` into a folder that already holds a pack: nothing is overwritten; the message
    asks for a new folder. Exit code 2."""

    exit_code = 2


_EXAMPLE = '''# A puzzle pack for jacpuzzles: the format of the kit's own chapters (checker/_data/autodiff.toml,
# whose header documents every field). Check it with `jacpuzzles pack check {folder}`, use it with
# `--pack {folder}` on list, show, check, hint, watch, init, notebook, solution and grade.

[chapter]
name = "{chapter}"
title = "{title}"
summary = \'\'\'
Puzzles of this course: for each tensor function, write its full Jacobian.\'\'\'

[[puzzle]]
name = "{prefix}softsign"
title = "Softsign"
points = 2
statement = \'\'\'
$f(x)_i = {{{{scale}}}} \\, x_i / (1 + |x_i|)$, entry by entry, for $x$ of {{{{n}}}} entries.

Each output entry depends on one input entry only, so the Jacobian is diagonal.\'\'\'
code = \'\'\'
def {prefix}softsign(x: Shaped[Array, "{{{{n}}}}"]) -> Shaped[Array, "{{{{n}}}}"]:
    return {{{{scale}}}} * x / (1 + np.abs(x))
\'\'\'
out = ["{{{{n}}}}"]
hints = [
  "The Jacobian has shape ({{{{n}}}}, {{{{n}}}}): one row per output entry, one column per input entry.",
  "Output i depends on x_i only: every entry off the diagonal is 0.",
  "d/dx [x / (1 + |x|)] = 1 / (1 + |x|)^2 on both sides of 0; put {{{{scale}}}} times that on the diagonal with `np.diag`.",
]
why = "Entry i of f depends on x_i alone, so only the diagonal is non-zero; there the quotient rule gives {{{{scale}}}} / (1 + |x_i|)^2, the same formula for either sign of x_i."
# Per-student variants: the first choice of each parameter is the published puzzle.
[puzzle.params.scale]
choices = [2, 3, -1]
[puzzle.params.n]
choices = [5, 4, 6]
[[puzzle.args]]
name = "x"
shape = ["{{{{n}}}}"]
low = -3.0
high = 3.0
avoid = ["zero"]  # |x| has a kink at 0: the sampler keeps every entry away from it
'''  # noqa: E501 - hints and why are one-line TOML strings, written as they are into the new pack.toml

_EXAMPLE_ANSWER = '''def jac(x: Shaped[Array, "5"]) -> Shaped[Array, "5 5"]:
    return np.diag(2 / (1 + np.abs(x)) ** 2)
'''

_README = '''# {title}: a jacpuzzles pack

- `pack.toml`: the puzzles (statement, `f`, argument domains and kinks, output shape, hints,
  why, points, per-student variants), in the format of the kit's own chapters.
- `solutions/{chapter}/<name>.py`: each puzzle's reference answer (its header is the learner's
  stub; your answer goes below the marker line). Reference answers never reach a grading worker.

    jacpuzzles pack check {folder}             # what `dev check` does for the kit, for this pack
    jacpuzzles list --pack {folder}            # the kit's chapters, then this one
    jacpuzzles init work --pack {folder}       # a learner's workspace with this chapter's stubs
    jacpuzzles grade SUBS --out OUT --pack {folder}

Docs: `jacpuzzles docs packs`.
'''


def new(folder: Path) -> list[Path]:
    """Write a pack with one worked example into `folder` (made if missing); the files written.
    Raises `PackExists` when `folder` already holds `pack.toml`."""
    folder = Path(folder)
    if (folder / PACK_FILE).exists():
        raise PackExists(f"{folder / PACK_FILE} exists already: not overwritten; give a new folder to "
                         "`jacpuzzles pack new`")
    chapter = re.sub(r"[^a-z0-9_]+", "_", folder.resolve().name.lower()).strip("_") or "course"
    if not chapter[0].isalpha():
        chapter = f"pack_{chapter}"
    known = {ch.name for ch in _catalog.chapters()}
    if chapter in known:
        chapter = f"{chapter}_pack"
    prefix = "" if _catalog.get("softsign") is None else f"{chapter}_"
    values = {"chapter": chapter, "title": chapter.replace("_", " ").capitalize(), "folder": folder.as_posix(),
              "prefix": prefix}
    catalog = _EXAMPLE.format(**values)
    raw = tomllib.loads(catalog)
    puzzle = _catalog._chapter(raw, str(folder / PACK_FILE), folder).puzzles[0]
    answer = _EXAMPLE_ANSWER
    reference = folder / "solutions" / _stubs.relative_path(puzzle)
    files = {folder / PACK_FILE: catalog, reference: _stubs.header(puzzle) + _stubs.MARKER + "\n" + answer,
             folder / "README.md": _README.format(**values)}
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return list(files)


@dataclass
class Report:
    """What `check` found: problems (one line each), and per puzzle the mutation score."""

    chapter: str = ""
    puzzles: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    mutation: dict[str, tuple[int, int]] = field(default_factory=dict)  # puzzle -> (caught, mutants)
    draws: int = 0  # draws every reference answer was checked on


def check(folder: Path, mutation: bool = True) -> Report:
    """Check the pack in `folder`: the catalog builds, every f (every variant's) returns its
    declared `out`, draws keep away from declared kinks, every reference answer passes on seeds
    0-4 and more (each draw against `jax.jacfwd` and `jax.jacrev`), every stub fails, hints and
    why are present; with `mutation`, each puzzle's mutation score too."""
    report = Report()
    try:
        _catalog.use_packs([folder])
    except (_catalog.PackError, CatalogError) as exc:
        report.problems.append(str(exc))
        return report
    chapter = next(ch for ch in _catalog.chapters() if ch.pack == Path(folder).expanduser().resolve())
    report.chapter = chapter.name
    report.puzzles = [p.name for p in chapter.puzzles]
    for puzzle in chapter.puzzles:
        report.problems += _check_puzzle(puzzle, Path(folder), report, mutation)
    return report


def _check_puzzle(puzzle: Puzzle, folder: Path, report: Report, mutation: bool) -> list[str]:
    from checker.engine import _variants
    from checker.engine._engine import check_files
    from checker.engine._verdict import Status

    where = puzzle.name
    problems = []
    if not puzzle.hints:
        problems.append(f"{where}: hints: none; add `hints = [...]`, easiest first (`jacpuzzles hint` reveals them one "
                        "by one)")
    if not puzzle.why.strip():
        problems.append(f"{where}: why: empty; say in 1-3 sentences why the reference answer is right "
                        "(`jacpuzzles solution` shows it)")
    try:
        _variants.check(puzzle)
    except CatalogError as exc:
        return problems + [f"{where}: code/out: {exc.message}; make f return the shapes `out` declares"]
    answer = folder / "solutions" / _stubs.relative_path(puzzle)
    if not answer.is_file():
        return problems + [f"{where}: reference answer: expected {answer}, found none; write the answer below the "
                           f"marker line of the stub (`jacpuzzles show {puzzle.name}`)"]
    text = answer.read_text(encoding="utf-8")
    if _stubs.MARKER not in text:
        problems.append(f"{where}: reference answer {answer}: the marker line is missing; keep the stub's header above "
                        "your answer")
    kinks = _kink_problems(puzzle)
    problems += kinks
    failed = []
    for seed in (*CHECK_SEEDS, *DENSE_SEEDS):
        verdict = check_files([(puzzle.name, answer)], seed=seed)[0]
        report.draws += verdict.draws
        if verdict.status != Status.PASS:
            failed.append((seed, verdict))
    if failed:
        seed, verdict = failed[0]
        seeds = ", ".join(str(s) for s, _ in failed[:6])
        problems.append(f"{where}: reference answer fails on seed{'s' if len(failed) > 1 else ''} {seeds}: "
                        f"{_first_line(verdict)}; fix the answer (or f, if f is what is wrong)")
    with tempfile.TemporaryDirectory(prefix="jacpuzzles-pack-") as tmp:
        stub = Path(tmp) / f"{puzzle.name}.py"
        stub.write_text(_stubs.stub(puzzle), encoding="utf-8")
        if check_files([(puzzle.name, stub)])[0].status == Status.PASS:
            problems.append(f"{where}: the stub passes as it is: its f or out cannot tell a Jacobian from a "
                            "placeholder")
    if mutation and not failed:
        report.mutation[puzzle.name] = _mutation_score(puzzle, answer)
    return problems


def _first_line(verdict: Verdict) -> str:
    text = verdict.message or next((d.message for d in verdict.diagnoses if d.message), verdict.status.value)
    return (text.splitlines() or [""])[0][:300]


def _kink_problems(puzzle: Puzzle) -> list[str]:
    """Draws of seeds 0-4 that sit on a kink the catalog declares (an exact 0, or a tie inside a
    group of entries that compete for one output: across groups, f is smooth)."""
    import numpy as np

    from checker.engine import _zeros
    from checker.engine._sampling import SAMPLER, draws

    groups = dict(_zeros.found(puzzle, SAMPLER).groups)
    problems = []
    for seed in CHECK_SEEDS:
        for draw in draws(puzzle, seed):
            for k, (arg, value) in enumerate(zip(puzzle.args, draw.values)):
                flat = np.asarray(value).ravel()
                if "zero" in arg.avoid and np.any(flat == 0):
                    problems.append(f"{puzzle.name}: args.{arg.name}: a draw ({draw.label}, seed {seed}) has an entry "
                                    "exactly 0, where avoid = zero")
                competing = [flat[list(g)] for g in groups.get(k, ())] or [flat]
                if "ties" in arg.avoid and any(len(np.unique(g)) < g.size for g in competing):
                    problems.append(f"{puzzle.name}: args.{arg.name}: a draw ({draw.label}, seed {seed}) has two equal "
                                    "entries, where avoid = ties")
    return problems[:3]


def _mutation_score(puzzle: Puzzle, answer: Path) -> tuple[int, int]:
    """(mutants the checker fails on seed 0, mutants proven wrong) for the reference `answer`."""
    from checker.authoring import mutation as _mutation
    from checker.engine._engine import check_files
    from checker.engine._verdict import Status

    found = _mutation.mutants(puzzle, answer.read_text(encoding="utf-8"))
    if not found:
        return 0, 0
    with tempfile.TemporaryDirectory(prefix="jacpuzzles-mutants-") as tmp:
        paths = [_mutation.write(m, Path(tmp) / str(k)) for k, m in enumerate(found)]  # a folder each: same file name
        wrong = [p for p, w in zip(paths, _mutation.prove_many(puzzle, paths)) if w is not None]
        caught = sum(check_files([(puzzle.name, p)])[0].status != Status.PASS for p in wrong)
    return caught, len(wrong)


class ReportView:
    """A pack check's report: each problem on a line, the mutation scores, the verdict."""

    def __init__(self, report: Report) -> None:
        self.report = report

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        r = self.report
        if r.chapter:
            yield Text(f"pack chapter {r.chapter}: {counted(len(r.puzzles), 'puzzle')}; "
                       f"reference answers checked on {r.draws} draws (seeds "
                       f"{CHECK_SEEDS.start}-{DENSE_SEEDS.stop - 1})", style="bold")
        for line in r.problems:
            yield Text(f"✗ {line}", style="red")
        if r.mutation:
            yield Text("mutation score: wrong answers made from each reference answer (and proven wrong) that the "
                       "checker fails")
            table = Table(show_edge=False)
            table.add_column("puzzle")
            table.add_column("caught", justify="right")
            for name, (caught, total) in r.mutation.items():
                table.add_row(name, f"{caught}/{total}" if total else "no mutant proven wrong",
                              style="" if caught == total else "yellow")
            yield table
            missed = [n for n, (c, t) in r.mutation.items() if c < t]
            if missed:
                yield Text(f"draws miss some mutants of {', '.join(missed)}: widen the domain (low/high) or declare "
                           "the kinks (avoid) so the draws reach them", style="yellow")
        yield Text("pack OK" if not r.problems else f"{counted(len(r.problems), 'problem')}: fix each, then run "
                                                    "`jacpuzzles pack check` again",
                   style="green" if not r.problems else "red")
