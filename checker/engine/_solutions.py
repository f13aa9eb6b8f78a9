"""Reference answers, for `jacpuzzles solution`: where they are, and how they are shown.

The repository's `solutions/` folder is the single source. A wheel carries a copy made when it is
built (`setup.py` copies the folder to `checker/_data/solutions/`), so an installed package shows
the same files; a source checkout (an editable install) reads `solutions/` itself. Nothing is
committed twice, and `dev check` flags a stale copy left in a source tree.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console, ConsoleOptions, RenderResult
from rich.padding import Padding
from rich.text import Text

from checker.engine import _badge, _catalog, _stubs
from checker.engine._catalog import Puzzle
from checker.engine._code import CodeLines
from checker.engine._errors import JacpuzzlesError

PACKAGED = Path(__file__).parents[1] / "_data" / "solutions"
SOURCE = Path(__file__).parents[2] / "solutions"  # beside the package in a source checkout


class MissingSolution(JacpuzzlesError):
    """The installation has no reference answer for a puzzle: the kit is incomplete; reinstall
    it, or run from the repository. Exit code 2, as the command line has always given it."""

    exit_code = 2

    def __init__(self, puzzle: str, looked: tuple[Path, ...]) -> None:
        self.puzzle = puzzle
        self.looked = looked
        where = " or ".join(str(p) for p in looked)
        super().__init__(
            f"no reference answer for {puzzle!r} in this installation (looked in {where}): "
            "reinstall jacpuzzles (`pip install --force-reinstall jacpuzzles`), or run from the repository"
        )


def folder() -> Path | None:
    """The folder of reference answers: the packaged copy, else the source checkout's `solutions/`."""
    return next((p for p in (PACKAGED, SOURCE) if p.is_dir()), None)


def reference(puzzle: Puzzle) -> str:
    """The whole reference answer file of `puzzle` (a pack's: in the pack's `solutions/`)."""
    pack = _catalog.pack_of(puzzle)
    if pack is not None:
        path = pack / "solutions" / _stubs.relative_path(puzzle)
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            raise MissingSolution(puzzle.name, (pack / "solutions",)) from None
    for base in (PACKAGED, SOURCE):
        path = base / _stubs.relative_path(puzzle)
        if path.is_file():
            return path.read_text(encoding="utf-8")
    raise MissingSolution(puzzle.name, (PACKAGED, SOURCE))


class SolutionView:
    """A reference answer: the code below the marker, highlighted, and why it is right."""

    def __init__(self, puzzle: Puzzle, text: str, forced: bool = False, published: bool = False) -> None:
        self.puzzle = puzzle
        self.answer = _stubs.answer_part(text).strip("\n")
        self.width = _badge.one_line_width(text, puzzle.answer_name)
        self.forced = forced
        self.published = published  # shown to a student whose own variant differs

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        p = self.puzzle
        yield Text(f"Reference answer: {p.title} ({p.name}) · {p.chapter} chapter", style="bold")
        whose = "the published puzzle's header, not your stub's" if self.published else "the header is your stub's"
        yield Text(f"below the marker line of {_stubs.relative_path(p).as_posix()}; {whose}", style="dim")
        # Lines whole (print this with crop=False): a pasted answer must be the code as written.
        yield Text()
        yield CodeLines(self.answer, indent=2)
        yield Text()
        yield Text("Why it is right", style="bold")
        yield Padding(Text(p.why or "(no explanation in the catalog for this puzzle)"), (0, 0, 0, 2))
        if self.width is not None:
            yield Padding(Text(f"{_badge.label(self.width)}: the original challenge", style="yellow"), (1, 0, 0, 2))
        if self.forced:
            yield Padding(Text("shown with --force, before your answer passed", style="dim"), (1, 0, 0, 0))


def packaged_drift(root: Path) -> list[str]:
    """Files of a copy `checker/_data/solutions/` under `root` that differ from `solutions/`.

    The copy is made in the build folder, never in the source tree; one found there is stale
    (left by hand or by an old build) and would be shown instead of the real answers.
    """
    copy, source = root / "checker" / "_data" / "solutions", root / "solutions"
    if not copy.is_dir():
        return []
    problems = []
    for p in _catalog.puzzles():
        ours, theirs = copy / _stubs.relative_path(p), source / _stubs.relative_path(p)
        if not ours.is_file() or not theirs.is_file() or ours.read_bytes() != theirs.read_bytes():
            problems.append(f"{ours}: differs from {theirs} (a stale copy: delete {copy}; builds make their own)")
    return problems


def missing_explanations() -> list[str]:
    """Catalog entries without a `why` for `jacpuzzles solution`."""
    return [
        f"{p.chapter}.toml: {p.name} has no `why` (why its reference answer is right)"
        for p in _catalog.puzzles()
        if not p.why
    ]
