"""A learner's workspace: a folder of answer stubs made by `jacpuzzles init`, anywhere.

A workspace is a folder holding `.jacpuzzles/workspace.toml` (the marker), one stub per puzzle by
chapter (`autodiff/cumsum.py`, ...), the progress file `.jacpuzzles-state.json` and, after a
`jacpuzzles reset`, the learner's earlier files in `.jacpuzzles/backups/`. Commands run inside a
workspace (at any depth) use it as their answer folder unless `--dir` says otherwise. Everything
here is made from the catalog in the installed package, so no repository is needed.

`jacpuzzles init DIR --assignment FILE --student ID` makes a student's workspace: the marker gains
an `[assignment]` table (student id, the assignment's seed and digest, whether variants are on),
and every command run in it (`choices`, `puzzle_in`) uses that student's own variant of each puzzle.
An assignment with a `[puzzles]` table gets stubs for those puzzles only, listed in the marker's
`puzzles` key; `check` and `list` then go through those, and the marker's `points` key holds the
assignment's points where they are not the catalog's, so that `list`, `show`, `check` and `watch`
count as `grade` does. Without an assignment, the workspace is the canonical one.
"""

from __future__ import annotations

import datetime
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from checker.engine import _catalog, _stubs, _variants
from checker.engine._catalog import Puzzle, puzzle_named
from checker.engine._errors import JacpuzzlesError
from checker.engine._verdict import Diagnosis, Kind, Status, Verdict
from checker.learner import _state

if TYPE_CHECKING:
    from checker.engine._assignment import Assignment

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

HOME = ".jacpuzzles"  # hidden: answer files are never looked for in it
MARKER_FILE = "workspace.toml"
BACKUPS = "backups"
FALLBACK = Path("puzzles")  # the answer folder outside any workspace (a clone of the repository)
CLASSROOM_WORKFLOW = Path(".github") / "workflows" / "classroom.yml"
# Local state a learner's commits should not carry into the graded repository.
CLASSROOM_GITIGNORE = (
    "# jacpuzzles: the learner's progress and reset backups stay "
    "local\n.jacpuzzles-state.json\n.jacpuzzles/backups/\n__pycache__/\n"
)


class WorkspaceError(JacpuzzlesError):
    """A workspace operation that cannot be done as asked; the message says why and what to do.
    Exit code 2."""

    exit_code = 2


def marker(root: Path) -> Path:
    """The file that makes `root` a workspace."""
    return root / HOME / MARKER_FILE


def enclosing(start: Path) -> Path | None:
    """The nearest folder at or above `start` that is a workspace, or None."""
    here = start.resolve()
    for folder in (here, *here.parents):
        if marker(folder).is_file():
            return folder
    return None


def default_dir(cwd: Path | None = None) -> Path:
    """The answer folder when `--dir` is not given: the enclosing workspace, else `./puzzles`.

    Inside the workspace's own top folder this is `.`, so messages show short paths.
    """
    here = Path.cwd() if cwd is None else cwd
    found = enclosing(here)
    if found is None:
        return FALLBACK
    return Path(".") if found == here.resolve() else found


@dataclass(frozen=True)
class Assigned:
    """A student's workspace: the marker's `[assignment]` table (and its `puzzles` key)."""

    student: str
    seed: int
    digest: str  # `Assignment.digest` of the file `init` was given
    variants: bool
    puzzles: tuple[str, ...] = ()  # the assignment's puzzles when it names some; () for all
    points: tuple[tuple[str, int], ...] = ()  # the assignment's points where not the catalog's

    def variant_of(self, puzzle: Puzzle | str) -> Puzzle:
        """This student's concrete `puzzle` (the canonical one when variants are off)."""
        return _variants.assigned(self.seed, self.student, puzzle) if self.variants else _variants.variant(puzzle)


def _toml_string(text: str) -> str:
    """`text` as a TOML basic string (control characters escaped, as TOML requires)."""
    escaped = "".join(
        "\\\\" if c == "\\" else '\\"' if c == '"' else f"\\u{ord(c):04x}" if ord(c) < 0x20 or ord(c) == 0x7F else c
        for c in text
    )
    return f'"{escaped}"'


def _marker_text(assigned: Assigned | None = None, packs: Sequence[str] = ()) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        made_by = version("jacpuzzles")
    except PackageNotFoundError:  # run from a source tree that was never installed
        made_by = "unknown"
    text = (
        "# This folder is a jacpuzzles workspace: commands run anywhere inside it use it as the\n"
        "# answer folder. Made by `jacpuzzles init`; delete this file to make it a plain folder.\n"
        f'created_by = "jacpuzzles {made_by}"\n'
        f'created = "{datetime.datetime.now().isoformat(timespec="seconds")}"\n'
    )
    if packs:
        text += (
            "# The puzzle packs this workspace's stubs come from, relative to this workspace: every command here "
            "uses them.\n"
        )
        text += "packs = [" + ", ".join(_toml_string(p) for p in packs) + "]\n"
    if assigned is None:
        return text
    if assigned.puzzles:
        text += "# The assignment's puzzles: `check` and `list` go through these.\n"
        text += "puzzles = [" + ", ".join(_toml_string(n) for n in assigned.puzzles) + "]\n"
    if assigned.points:
        text += "# The assignment's points, where they are not the catalog's: every command here counts these.\n"
        text += "points = { " + ", ".join(f"{_toml_string(n)} = {v}" for n, v in assigned.points) + " }\n"
    return text + (
        "\n# Made by `jacpuzzles init --assignment FILE --student ID`: your stubs are your own variants\n"
        "# of the puzzles. Edit nothing here: the grader checks the id and digest against its own.\n"
        "[assignment]\n"
        f"student = {_toml_string(assigned.student)}\n"
        f"seed = {assigned.seed}\n"
        f"digest = {_toml_string(assigned.digest)}\n"
        f"variants = {'true' if assigned.variants else 'false'}\n"
    )


def assignment(root: Path) -> Assigned | None:
    """The assignment record of the workspace holding `root` (at any depth), or None for a
    canonical workspace or a plain folder. A damaged record is a `WorkspaceError`."""
    home = enclosing(root) if root.exists() else None
    if home is None:
        return None
    path = marker(home)
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    if "[assignment]" not in text:
        return None  # a canonical workspace: its marker is not read beyond this
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise WorkspaceError(f"{path} is not valid TOML ({exc}): {_REMAKE}") from None
    table = raw.get("assignment")
    if not isinstance(table, dict):
        raise WorkspaceError(f"{path}: `assignment` must be a table ([assignment]): {_REMAKE}")
    student, seed, digest, variants = (table.get(k) for k in ("student", "seed", "digest", "variants"))
    if not isinstance(student, str) or not student.strip():
        raise WorkspaceError(
            f"{path}: [assignment] student must be the student id (a non-empty string), found {student!r}: {_REMAKE}"
        )
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise WorkspaceError(f"{path}: [assignment] seed must be a whole number, 0 or more, found {seed!r}: {_REMAKE}")
    if not isinstance(digest, str):
        raise WorkspaceError(f"{path}: [assignment] digest must be a string, found {digest!r}: {_REMAKE}")
    if not isinstance(variants, bool):
        raise WorkspaceError(f"{path}: [assignment] variants must be true or false, found {variants!r}: {_REMAKE}")
    names = raw.get("puzzles", [])
    known = {p.name for p in _catalog.puzzles()}
    if not isinstance(names, list) or not all(isinstance(n, str) and n in known for n in names):
        raise WorkspaceError(
            f'{path}: puzzles must list puzzle names (e.g. ["cumsum", "neg"]), found {names!r}: {_REMAKE}'
        )
    points = raw.get("points", {})
    if not isinstance(points, dict) or not all(
        n in known and isinstance(v, int) and not isinstance(v, bool) and v >= 0 for n, v in points.items()
    ):
        raise WorkspaceError(
            f'{path}: points must map puzzle names to whole numbers (e.g. {{ "cumsum" = 3 }}), found {points!r}: '
            f'{_REMAKE}'
        )
    return Assigned(student.strip(), seed, digest, variants, tuple(dict.fromkeys(names)), tuple(points.items()))


_REMAKE = (
    "it is written by `jacpuzzles init DIR --assignment FILE --student ID`; put it back as it was, "
    "or make a new workspace that way and copy your answers into it"
)


def _recorded(root: Path, folders: Sequence[Path]) -> list[str]:
    """Pack folders as a marker records them: relative to the workspace `root`, so that a clone or
    a moved copy that carries its packs along finds them (absolute only where no relative path
    exists: another drive)."""
    found = []
    for folder in folders:
        try:
            found.append(Path(os.path.relpath(Path(folder).resolve(), root.resolve())).as_posix())
        except ValueError:
            found.append(str(folder))
    return found


def packs(root: Path) -> list[Path]:
    """The pack folders recorded by `init --pack` in the workspace holding `root` (none for a
    plain folder), relative ones resolved against the workspace. A damaged record is a
    `WorkspaceError`."""
    home = enclosing(root) if root.exists() else None
    if home is None:
        return []
    path = marker(home)
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    if "packs" not in text:
        return []
    try:
        found = tomllib.loads(text).get("packs", [])
    except tomllib.TOMLDecodeError as exc:
        raise WorkspaceError(f"{path} is not valid TOML ({exc}): {_REMAKE}") from None
    if not isinstance(found, list) or not all(isinstance(p, str) for p in found):
        raise WorkspaceError(
            f"{path}: packs must list the packs' folders, found {found!r}: put it back as `jacpuzzles init --pack DIR` "
            "wrote it"
        )
    return [home / p for p in found]  # an absolute path stays as it is


def choices(root: Path) -> dict[str, dict[str, Any]]:
    """The variant of every puzzle in the workspace holding `root`, as `{name: choices}`, the
    form `check_files(variants=)` takes; empty for a canonical workspace (or variants off)."""
    found = assignment(root)
    if found is None or not found.variants:
        return {}
    return {p.name: dict(_variants.choose(found.seed, found.student, p)) for p in _catalog.puzzles()}


def puzzle_in(root: Path, name: str) -> Puzzle:
    """Puzzle `name` as the workspace holding `root` has it: the student's own variant, or the
    canonical puzzle. Raises `UnknownPuzzle` for a name the catalog does not have."""
    base = puzzle_named(name)
    found = assignment(root)
    return base if found is None else found.variant_of(base)


def points(root: Path) -> dict[str, int]:
    """Points per puzzle as the workspace holding `root` counts them: the assignment's in a
    student's workspace (what `grade` gives), else the catalog's."""
    found = assignment(root) if root.exists() else None
    return {p.name: p.points for p in _catalog.puzzles()} | dict(found.points if found is not None else ())


def puzzle_names(root: Path) -> list[str]:
    """The puzzles of the workspace holding `root`, in catalog order: the assignment's, when it
    names some, else every puzzle."""
    found = assignment(root)
    chosen = set(found.puzzles) if found is not None and found.puzzles else None
    return [p.name for p in _catalog.puzzles() if chosen is None or p.name in chosen]


def init(root: Path, given: Assignment | None = None, student: str | None = None) -> list[Path]:
    """Write a fresh stub for every puzzle under `root` and mark it a workspace; returns the stubs.

    With an assignment `given` and a `student` id: that student's own variant of each of the
    assignment's puzzles (canonical ones when its variants are off), and the `[assignment]`
    record in the marker. Refuses, writing nothing, when `root` already holds an answer file for
    any puzzle (a second file with the same name would make that puzzle an error) or is not a
    folder.
    """
    assigned = None
    if given is not None:
        from checker.engine._settings import DEFAULT_SEED

        if student is None or not student.strip():
            raise WorkspaceError(
                "--student needs the student's id (the one the instructor's roster has), e.g. `--student s1234`"
            )
        if any(ord(c) < 0x20 or ord(c) == 0x7F for c in student):
            raise WorkspaceError(
                f"the student id {student!r} holds control characters: give the id as the roster has it, e.g. "
                "`--student s1234`"
            )
        every = {p.name for p in _catalog.puzzles()}
        names = tuple(n for n, _ in given.puzzles)
        catalog_points = {p.name: p.points for p in _catalog.puzzles()}
        assigned = Assigned(
            student.strip(), given.seed if given.seed is not None else DEFAULT_SEED, given.digest, given.variants,
            names if set(names) != every else (),
            tuple((n, v) for n, v in given.puzzles if v != catalog_points[n]),
        )
    if root.exists() and not root.is_dir():
        raise WorkspaceError(
            f"{root} exists and is not a folder: pick a new folder name, e.g. `jacpuzzles init jacpuzzles-work`"
        )
    existing = sorted(p for paths in _stubs.find_answers(root).values() for p in paths) if root.is_dir() else []
    if existing:
        shown = ", ".join(str(p) for p in existing[:5]) + (
            f" and {len(existing) - 5} more" if len(existing) > 5 else ""
        )
        raise WorkspaceError(
            f"{root} already holds {len(existing)} answer file{'' if len(existing) == 1 else 's'}: {shown}. Nothing "
            "was written, so no work is lost. "
            f"To keep working there: `cd {root}` and `jacpuzzles list`; to start one puzzle over: "
            f"`jacpuzzles reset NAME --dir {root}` (your file is backed up); for a fresh set of stubs: "
            "`jacpuzzles init` into a new, empty folder"
        )
    wanted = [p for p in _catalog.puzzles() if assigned is None or not assigned.puzzles or p.name in assigned.puzzles]
    stubs = [
        (p, _stubs.stub(p if assigned is None else assigned.variant_of(p))) for p in wanted
    ]  # all built before any write
    written = []
    for p, text in stubs:
        path = root / _stubs.relative_path(p)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    # A marker is kept as it was, unless it records another assignment than this init's.
    in_use = [folder for folder, _ in _catalog.packs()]
    if (
        assigned is not None
        or in_use
        or not marker(root).is_file()
        or "[assignment]" in marker(root).read_text(encoding="utf-8", errors="replace")
    ):
        marker(root).parent.mkdir(parents=True, exist_ok=True)
        marker(root).write_text(_marker_text(assigned, _recorded(root, in_use)), encoding="utf-8")
    return written


def classroom_workflow() -> str:
    """The GitHub Classroom workflow (docs/templates/classroom.yml), from the installed package."""
    return (_catalog._DATA / "classroom.yml").read_text(encoding="utf-8")


PACKS_HOME = "packs"  # a Classroom template's copies of its packs: `packs/<pack folder's name>/pack.toml`


def init_classroom(root: Path) -> list[Path]:
    """`init`, plus `.github/workflows/classroom.yml` and a `.gitignore`: `root` is then an
    assignment's template repository for GitHub Classroom; returns the stubs.

    The packs in use are copied into `root/packs/<name>/` without their `solutions/` (their
    `pack.toml` alone: what a student's clone and its grader need, not the reference answers),
    and the marker records those copies, relative to `root`. Refuses, writing nothing, where
    `init` does, when `root` already holds that workflow, or when two packs have one name.
    """
    workflow = root / CLASSROOM_WORKFLOW
    if workflow.exists():
        raise WorkspaceError(
            f"{workflow} already exists. Nothing was written: remove it to write a fresh one, or run `jacpuzzles init "
            "--classroom` into a new, empty folder"
        )
    in_use = _catalog.packs()
    names = [folder.name for folder, _ in in_use]
    if len(set(names)) != len(names):
        raise WorkspaceError(
            f"two packs have the same folder name ({', '.join(str(f) for f, _ in in_use)}): rename one, then run "
            "`jacpuzzles init --classroom` again"
        )
    copies = [root / PACKS_HOME / name for name in names]
    if any(copy.exists() for copy in copies):
        raise WorkspaceError(
            f"{root / PACKS_HOME} already holds a pack of that name. Nothing was written: run `jacpuzzles init "
            "--classroom` into a new, empty folder"
        )
    written = init(root)
    for copy, (_, text) in zip(copies, in_use):
        copy.mkdir(parents=True)
        (copy / _catalog.PACK_FILE).write_text(text, encoding="utf-8")
    if in_use:  # the marker records the copies, which the template carries
        _catalog.use_packs(copies)
        marker(root).write_text(_marker_text(None, _recorded(root, copies)), encoding="utf-8")
    workflow.parent.mkdir(parents=True, exist_ok=True)
    workflow.write_text(classroom_workflow(), encoding="utf-8")
    if not (root / ".gitignore").exists():
        (root / ".gitignore").write_text(CLASSROOM_GITIGNORE, encoding="utf-8")
    return written


@dataclass(frozen=True)
class Reset:
    """What `reset` did: the stub it wrote, and where the learner's file was kept (None: nothing to keep)."""

    path: Path
    backup: Path | None


def backup_path(root: Path, name: str, now: datetime.datetime | None = None) -> Path:
    """A new, unused backup path `<root>/.jacpuzzles/backups/<name>-<timestamp>[-N].py`."""
    stamp = (now or datetime.datetime.now()).strftime("%Y%m%d-%H%M%S")
    folder = root / HOME / BACKUPS
    candidate = folder / f"{name}-{stamp}.py"
    n = 1
    while candidate.exists():
        n += 1
        candidate = folder / f"{name}-{stamp}-{n}.py"
    return candidate


def _keep(root: Path, name: str, data: bytes) -> Path:
    """Write `data` to a fresh backup file, never replacing an earlier backup."""
    (root / HOME / BACKUPS).mkdir(parents=True, exist_ok=True)
    while True:
        path = backup_path(root, name)
        try:
            with open(path, "xb") as fh:  # "x": fails rather than overwrite
                fh.write(data)
            return path
        except FileExistsError:  # taken between the check and the write: pick the next one
            continue


def reset(root: Path, puzzle: Puzzle) -> Reset:
    """Put the untouched stub of `puzzle` back under `root`, keeping the learner's file as a backup.

    The stub goes where the learner's file was (or at its usual place when there is none). An
    untouched stub needs no backup. Several files for the puzzle: `WorkspaceError`, nothing changed.
    """
    if not root.is_dir():
        raise WorkspaceError(
            f"answer folder {root} does not exist: make one with `jacpuzzles init {root}`, or pass --dir PATH"
        )
    paths = _stubs.find_answers(root).get(puzzle.name, [])
    if len(paths) > 1:
        listing = ", ".join(str(p) for p in paths)
        raise WorkspaceError(
            f"{len(paths)} files named {puzzle.name}.py under {root}: {listing}; keep one, then reset again"
        )
    path = paths[0] if paths else root / _stubs.relative_path(puzzle)
    fresh = _stubs.stub(puzzle_in(root, puzzle.name))  # in a student's workspace, their variant
    backup = None
    if path.is_file():
        data = path.read_bytes()
        if data != fresh.encode():
            backup = _keep(root, puzzle.name, data)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(fresh, encoding="utf-8")
    return Reset(path, backup)


def locate(root: Path, name: str, found: dict[str, list[Path]], seed: int) -> Path | Verdict:
    """The one answer file of `name` among `found` (`find_answers(root)`), or the verdict that
    says why there is none to check (two files: error; none: todo)."""
    paths = found.get(name, [])
    if len(paths) > 1:
        listing = ", ".join(str(p) for p in paths)
        message = f"{len(paths)} files named {name}.py under {root}: {listing}; keep one"
        return Verdict(name, Status.ERROR, message, (Diagnosis(Kind.MISSING, message),), seed=seed)
    if not paths:
        expected = root / _stubs.relative_path(puzzle_named(name))
        message = f"no answer file {name}.py under {root} (expected at {expected})"
        return Verdict(name, Status.TODO, message, (Diagnosis(Kind.MISSING, message),), seed=seed)
    return paths[0]


def status_of(
    root: Path,
    name: str,
    found: dict[str, list[Path]],
    state: dict[str, dict[str, str]],
    variants: Mapping[str, Mapping[str, Any]] | None = None,
) -> str:
    """A puzzle's status from the state file; `variants`: the workspace's (`_workspace.choices`),
    whose stubs are the untouched ones."""
    paths = found.get(name, [])
    if len(paths) != 1:
        return "todo" if not paths else "error"
    text = paths[0].read_text(errors="replace")
    if text == _stubs.stub(_variants.variant(name, (variants or {}).get(name))):
        return "todo"
    seen = state.get(name, {})
    if seen.get("digest") == _state.digest(paths[0]):
        return seen.get("status", "unchecked")
    return "unchecked"


def last_hint_note(name: str) -> str:
    """Where to go once every hint is out: commands, which work in every install (no docs folder)."""
    return (
        f"No more hints: `jacpuzzles show {name} --page` shows the puzzle's whole page (what your answer is tried on, "
        f"every hint), `jacpuzzles show {name} --svg {name}.svg --mine` draws your Jacobian beside the expected one; "
        f"`jacpuzzles solution {name}` shows the reference answer once yours passes."
    )
