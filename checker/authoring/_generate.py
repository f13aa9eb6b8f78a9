"""The files generated from the catalog, for maintainers (`jacpuzzles dev generate` / `check`):
the learner stubs under `puzzles/`, the reference answers' headers under `solutions/`, the puzzle
pages and their pictures under `docs/puzzles/`, the catalogs' parsed mirrors under
`checker/_data/`. Only the kit's own chapters are generated."""

from __future__ import annotations

from pathlib import Path

from checker.engine._catalog import CHAPTERS, Chapter, Puzzle, chapters, mirror_text
from checker.engine._stubs import (
    MARKER,
    _is_untouched,
    answer_part,
    doc_index,
    doc_page,
    header,
    picture_path,
    relative_path,
    stub,
)


def _kit() -> tuple[Chapter, ...]:
    """The kit's own chapters (packs in use are not the repository's)."""
    return tuple(ch for ch in chapters() if ch.pack is None)


def expected_files(root: Path) -> dict[Path, str]:
    """Every generated file under `root` (the repository) with the text it must have.

    Reference answers are not in this map: only their header is generated (see `solution_drift`).
    """
    files: dict[Path, str] = {}
    number = 0
    for ch in _kit():
        for p in ch.puzzles:
            number += 1
            files[root / "puzzles" / relative_path(p)] = stub(p)
            files[root / "docs" / "puzzles" / f"{p.name}.md"] = doc_page(p, number)
    files[root / "docs" / "puzzles" / "README.md"] = doc_index(_kit())
    for name in CHAPTERS:  # each catalog parsed, read in its place when made from its bytes
        files[root / "checker" / "_data" / f"{name}.toml.json"] = mirror_text(name)
    from checker.learner._picture import expected_pictures  # JAX: the expected Jacobians, cached on disk

    for name, text in expected_pictures(tuple(p for ch in _kit() for p in ch.puzzles)).items():
        files[root / picture_path(_named(name))] = text
    return files


def _named(name: str) -> Puzzle:
    return next(p for ch in _kit() for p in ch.puzzles if p.name == name)


def solution_drift(root: Path) -> list[str]:
    """Reference answers that are missing or whose header differs from the catalog's."""
    problems = []
    for ch in _kit():
        for p in ch.puzzles:
            path = root / "solutions" / relative_path(p)
            if not path.is_file():
                problems.append(f"{path}: missing")
            elif not path.read_text().startswith(header(p) + MARKER):
                problems.append(f"{path}: header differs from the catalog")
    return problems


def drift(root: Path) -> list[str]:
    """Every generated file that is missing or differs from what the catalog gives, a stale copy
    of the reference answers in the package folder, and catalog entries with no `why`."""
    from checker.engine import _solutions  # it reads this module's paths

    problems = [
        f"{path}: {'differs from the catalog' if path.is_file() else 'missing'}"
        for path, text in expected_files(root).items()
        if not path.is_file() or path.read_text() != text
    ]
    return problems + solution_drift(root) + _solutions.packaged_drift(root) + _solutions.missing_explanations()


def _rewrite_header(path: Path, puzzle: Puzzle) -> bool:
    """Give the file at `path` the catalog's header, keeping any answer written below `MARKER`."""
    fresh = stub(puzzle)
    answer = answer_part(path.read_text()) if path.is_file() else ""
    if answer.strip() and not answer.startswith("\n"):  # a file written without the marker line
        answer = "\n" + answer
    text = fresh if _is_untouched(answer) or not answer.strip() else header(puzzle) + MARKER + answer
    if path.is_file() and path.read_text() == text:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return True


def generate(root: Path) -> list[Path]:
    """Write every generated file under `root`; returns the paths written.

    Doc pages are rewritten whole. Stubs and reference answers get the catalog's header, but an
    answer written below `MARKER` is kept: regenerating never loses anyone's work.
    """
    written = []
    for path, text in expected_files(root).items():
        if path.suffix == ".py":
            continue
        if not path.is_file() or path.read_text() != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            written.append(path)
    for p in (p for ch in _kit() for p in ch.puzzles):
        for folder in ("puzzles", "solutions"):
            path = root / folder / relative_path(p)
            if _rewrite_header(path, p):
                written.append(path)
    return written
