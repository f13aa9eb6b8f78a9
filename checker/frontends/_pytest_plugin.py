"""The pytest plugin: `pytest --jacpuzzles [--jacpuzzles-dir DIR]` runs one test per puzzle.

Registered through the `pytest11` entry point, so pytest loads it wherever jacpuzzles is
installed, our own test suite included. Without `--jacpuzzles` it only declares its options:
no hook of it runs, nothing is collected, nothing heavy is imported.

With `--jacpuzzles`, pytest collects nothing from the file system (no test file of the
repository is imported) and one item per puzzle instead, named after the puzzle. The selected
puzzles' answers are graded once, by the class grader out of process (`_grade.grade_one`), at
the start of the session's test loop, before any item runs: no item's time (nor a per-test
time limit such as pytest-timeout's `--timeout`) is charged with it, and a failure of the
grading is reported by every item without grading again. Each item then passes, fails
(`fail`), errors (`error`, reported from its setup) or is skipped (`todo`) with the verdict's
feedback as its text. docs/autograding.md says why out of process, and what pytest itself does
with `conftest.py` files.
"""

from __future__ import annotations

import io
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

SUITE = "jacpuzzles"  # the collector's name: junit's classname, the first part of each node id


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("jacpuzzles", "jacpuzzles: one test per puzzle (`jacpuzzles docs autograding`)")
    group.addoption("--jacpuzzles", action="store_true", default=False,
                    help="test the answers in --jacpuzzles-dir: one test per puzzle; nothing else is collected")
    group.addoption(
        "--jacpuzzles-dir",
        default=None,
        metavar="DIR",
        help="folder holding the answer files <puzzle>.py, at any depth (default: the workspace you are in, else "
             "./puzzles)",
    )
    group.addoption("--jacpuzzles-seed", type=int, default=None, metavar="N",
                    help="seed of the input draws (default: the kit's, as `jacpuzzles check`)")
    group.addoption(
        "--jacpuzzles-assignment",
        default=None,
        metavar="FILE",
        help="the instructor's assignment file: its puzzles, points, seed and (with variants on) each student's own "
             "variants",
    )
    group.addoption(
        "--jacpuzzles-student",
        default=None,
        metavar="ID",
        help='with an assignment that has variants on: the student id whose variants are graded (e.g. "$GITHUB_ACTOR")',
    )


def pytest_configure(config: pytest.Config) -> None:
    if not config.getoption("jacpuzzles"):
        return  # inert: not one hook of ours is registered
    from checker.learner import _workspace

    given = config.getoption("jacpuzzles_dir")
    here = config.invocation_params.dir
    # As every `jacpuzzles` command: the workspace pytest runs in (at any depth), else ./puzzles.
    answers = Path(given) if given is not None else here / _workspace.default_dir(here)
    file = config.getoption("jacpuzzles_assignment")
    if file is not None:
        from checker.engine._assignment import BadSetup, load

        try:
            assignment = load(Path(file))
        except BadSetup as exc:
            raise pytest.UsageError(f"--jacpuzzles-assignment: {exc}") from None
        if assignment.variants and not config.getoption("jacpuzzles_student"):
            raise pytest.UsageError(
                f"--jacpuzzles-assignment {file}: its variants are on, so the grade depends on whose they are: "
                "pass --jacpuzzles-student ID (in GitHub Actions, \"$GITHUB_ACTOR\" through the roster)"
            )
    try:
        record = _workspace.assignment(answers) if answers.is_dir() else None
    except _workspace.WorkspaceError as exc:
        raise pytest.UsageError(str(exc)) from None
    if record is not None and file is None:
        # The record is the student's own file: its puzzles and points are not the instructor's word.
        raise pytest.UsageError(
            f"{answers} is student {record.student}'s workspace for an assignment: pass the instructor's file and the "
            "id, "
            f"`--jacpuzzles-assignment FILE --jacpuzzles-student {record.student}`, so that the assignment's puzzles, "
            "points "
            "and variants are graded; `jacpuzzles check` checks them as the workspace records them"
        )
    if not answers.is_dir():
        raise pytest.UsageError(
            f"--jacpuzzles-dir {str(answers)!r} is not a folder: pass the folder holding your answer files "
            "(relative paths start from the directory pytest runs in)"
        )
    config.pluginmanager.register(_Session(config, answers.resolve()), "jacpuzzles-session")


class _Session:
    """The hooks active under `--jacpuzzles`, and the grading all the items share."""

    def __init__(self, config: pytest.Config, answers: Path) -> None:
        self.config = config
        self.answers = answers
        self._graded = False  # set before grading starts: whatever happens, it is never repeated
        self._results: dict[str, dict[str, Any]] = {}
        self._reason: str | None = None
        self._session: pytest.Session | None = None

    def pytest_ignore_collect(self, collection_path: Path, config: pytest.Config) -> bool:
        return True  # the file system holds no test of ours: importing the repository's would run its code

    @pytest.hookimpl(tryfirst=True)  # before -k and -m deselect: they apply to our items too
    def pytest_collection_modifyitems(
        self, session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
    ) -> None:
        from checker.engine import _assignment

        self._session = session
        suite = _Suite.from_parent(session, name=SUITE, nodeid=SUITE)  # not `::jacpuzzles`
        file = config.getoption("jacpuzzles_assignment")
        chosen = _assignment.load(Path(file)) if file is not None else _assignment.default()
        items[:] = [PuzzleItem.from_parent(suite, name=name) for name in chosen.points()]

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> None:
        """Grade the selected puzzles (after -k and -m) before the first item runs: outside every
        item's time, so a per-test time limit only ever covers reading a verdict."""
        if session.config.option.collectonly or not session.items:
            return
        self.grade([item.name for item in session.items if isinstance(item, PuzzleItem)])

    def result(self, puzzle: str) -> dict[str, Any] | str:
        """The puzzle's `check --json` result, or why the answers could not be graded."""
        if not self._graded:  # another plugin ran the test loop: grade every selected puzzle now
            items = self._session.items if self._session is not None else []
            self.grade([item.name for item in items if isinstance(item, PuzzleItem)] or [puzzle])
        if self._reason is not None:
            return self._reason
        return self._results.get(puzzle) or f"{puzzle} was not graded: it was not selected when the session started"

    def grade(self, names: list[str]) -> None:
        """Grade the answers of the puzzles `names` once, out of process, with the class grader's limits."""
        if self._graded:
            return
        self._graded = True
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(f"jacpuzzles: grading {len(names)} puzzle(s) in {self.answers}, out of process…")
        start = time.monotonic()
        try:
            self._grade(names)
        except Exception as exc:  # noqa: BLE001 - the grader's own failure: every item reports it, once graded
            self._reason = (
                f"the answers in {self.answers} could not be graded: the grader failed: {type(exc).__name__}: {exc}"
            )
        if reporter is not None:
            outcome = "could not grade them" if self._reason is not None else "graded"
            reporter.write_line(
                f"jacpuzzles: {outcome} in {time.monotonic() - start:.1f} s (not counted in any test's time)"
            )

    def _grade(self, names: list[str]) -> None:
        import dataclasses

        from rich.console import Console

        from checker.engine._assignment import BadSetup, default, load, resolve
        from checker.grading._grade import grade_one
        from checker.grading._sandbox import Limits

        file = self.config.getoption("jacpuzzles_assignment")
        whole = load(Path(file)) if file is not None else default()
        points = whole.points()
        chosen = dataclasses.replace(whole, puzzles=tuple((name, points[name]) for name in points if name in names))
        student = self.config.getoption("jacpuzzles_student")
        given = resolve(whole, jobs=None, timeout=None, memory_mb=None, seed=self.config.getoption("jacpuzzles_seed"))
        quiet = Console(file=io.StringIO(), width=100)
        try:
            with tempfile.TemporaryDirectory(prefix="jacpuzzles-pytest-") as out:
                doc = grade_one(
                    self.answers,
                    "answers",
                    Path(out),
                    Limits(given.timeout, given.memory_mb),
                    given.seed,
                    quiet,
                    quiet,
                    chosen,
                    student or None,
                )
        except BadSetup as exc:
            self._reason = str(exc)
            return
        if doc["status"] != "graded":
            self._reason = f"the answers in {self.answers} could not be graded: {doc.get('reason')}"
            return
        self._results = {r["puzzle"]: r for r in doc["results"]}


class _Suite(pytest.Collector):
    """The parent of the puzzle items (its name is junit's classname)."""

    def collect(self) -> Iterator[pytest.Item]:  # pragma: no cover - items are made directly
        return iter(())


class PuzzleItem(pytest.Item):
    """One puzzle: its verdict on the answer in the answers folder."""

    def _session(self) -> _Session:
        plugin = self.config.pluginmanager.get_plugin("jacpuzzles-session")
        assert isinstance(plugin, _Session)
        return plugin

    def setup(self) -> None:
        from checker.frontends._autograde import puzzle_feedback
        from checker.grading._gradebook import neutralised

        # The report may be a CI runner's log: what an answer printed is never a workflow command there.
        result = self._session().result(self.name)
        if isinstance(result, str):
            pytest.fail(neutralised(result), pytrace=False)  # in setup: reported as an error
        if result["status"] == "todo":
            # Reported at the item, not at this line of ours.
            raise pytest.skip.Exception(neutralised(f"todo: {result['message']}"), _use_item_location=True)
        if result["status"] == "error":
            pytest.fail(neutralised(puzzle_feedback(result)), pytrace=False)

    def runtest(self) -> None:
        from checker.frontends._autograde import puzzle_feedback
        from checker.grading._gradebook import neutralised

        result = self._session().result(self.name)
        assert not isinstance(result, str)
        if result["status"] != "pass":
            pytest.fail(neutralised(puzzle_feedback(result)), pytrace=False)

    def reportinfo(self) -> tuple[Path, int, str]:
        """The answer file (the answers folder when there is none), its first line, the puzzle."""
        session = self._session()
        path = session._results.get(self.name, {}).get("path")
        return (session.answers / path if path else session.answers), 0, f"jacpuzzles: {self.name}"
