"""A learner's workspace: a folder of answer stubs made by `jacpuzzles init`, anywhere.

A workspace is a folder holding `.jacpuzzles/workspace.toml` (the marker), one stub per puzzle by
chapter (`autodiff/cumsum.py`, ...), the progress file `.jacpuzzles-state.json` and, after a
`jacpuzzles reset`, the learner's earlier files in `.jacpuzzles/backups/`. Commands run inside a
workspace (at any depth) use it as their answer folder unless `--dir` says otherwise. Everything
here is made from the catalog in the installed package, so no repository is needed.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from pathlib import Path

from checker import _catalog, _stubs
from checker._catalog import Puzzle

HOME = ".jacpuzzles"  # hidden: answer files are never looked for in it
MARKER_FILE = "workspace.toml"
BACKUPS = "backups"
FALLBACK = Path("puzzles")  # the answer folder outside any workspace (a clone of the repository)
CLASSROOM_WORKFLOW = Path(".github") / "workflows" / "classroom.yml"
# Local state a learner's commits should not carry into the graded repository.
CLASSROOM_GITIGNORE = "# jacpuzzles: the learner's progress and reset backups stay local\n.jacpuzzles-state.json\n.jacpuzzles/backups/\n__pycache__/\n"


class WorkspaceError(Exception):
    """A workspace operation that cannot be done as asked; the message says why and what to do."""


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


def _marker_text() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        made_by = version("jacpuzzles")
    except PackageNotFoundError:  # run from a source tree that was never installed
        made_by = "unknown"
    return (
        "# This folder is a jacpuzzles workspace: commands run anywhere inside it use it as the\n"
        "# answer folder. Made by `jacpuzzles init`; delete this file to make it a plain folder.\n"
        f'created_by = "jacpuzzles {made_by}"\n'
        f'created = "{datetime.datetime.now().isoformat(timespec="seconds")}"\n'
    )


def init(root: Path) -> list[Path]:
    """Write a fresh stub for every puzzle under `root` and mark it a workspace; returns the stubs.

    Refuses, writing nothing, when `root` already holds an answer file for any puzzle (a second
    file with the same name would make that puzzle an error) or is not a folder.
    """
    if root.exists() and not root.is_dir():
        raise WorkspaceError(f"{root} exists and is not a folder: pick a new folder name, e.g. `jacpuzzles init jacpuzzles-work`")
    existing = sorted(p for paths in _stubs.find_answers(root).values() for p in paths) if root.is_dir() else []
    if existing:
        shown = ", ".join(str(p) for p in existing[:5]) + (f" and {len(existing) - 5} more" if len(existing) > 5 else "")
        raise WorkspaceError(
            f"{root} already holds {len(existing)} answer file{'' if len(existing) == 1 else 's'}: {shown}. Nothing was written, so no work is lost. "
            f"To keep working there: `cd {root}` and `jacpuzzles list`; to start one puzzle over: "
            f"`jacpuzzles reset NAME --dir {root}` (your file is backed up); for a fresh set of stubs: "
            "`jacpuzzles init` into a new, empty folder"
        )
    written = []
    for puzzle in _catalog.puzzles():
        path = root / _stubs.relative_path(puzzle)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_stubs.stub(puzzle), encoding="utf-8")
        written.append(path)
    if not marker(root).is_file():
        marker(root).parent.mkdir(parents=True, exist_ok=True)
        marker(root).write_text(_marker_text(), encoding="utf-8")
    return written


def classroom_workflow() -> str:
    """The GitHub Classroom workflow (docs/templates/classroom.yml), from the installed package."""
    return (_catalog._DATA / "classroom.yml").read_text(encoding="utf-8")


def init_classroom(root: Path) -> list[Path]:
    """`init`, plus `.github/workflows/classroom.yml` and a `.gitignore`: `root` is then an
    assignment's template repository for GitHub Classroom; returns the stubs.

    Refuses, writing nothing, where `init` does and when `root` already holds that workflow.
    """
    workflow = root / CLASSROOM_WORKFLOW
    if workflow.exists():
        raise WorkspaceError(f"{workflow} already exists. Nothing was written: remove it to write a fresh one, or run `jacpuzzles init --classroom` into a new, empty folder")
    written = init(root)
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
        raise WorkspaceError(f"answer folder {root} does not exist: make one with `jacpuzzles init {root}`, or pass --dir PATH")
    paths = _stubs.find_answers(root).get(puzzle.name, [])
    if len(paths) > 1:
        listing = ", ".join(str(p) for p in paths)
        raise WorkspaceError(f"{len(paths)} files named {puzzle.name}.py under {root}: {listing}; keep one, then reset again")
    path = paths[0] if paths else root / _stubs.relative_path(puzzle)
    fresh = _stubs.stub(puzzle)
    backup = None
    if path.is_file():
        data = path.read_bytes()
        if data != fresh.encode():
            backup = _keep(root, puzzle.name, data)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(fresh, encoding="utf-8")
    return Reset(path, backup)
