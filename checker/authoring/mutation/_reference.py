"""The kit's reference answers, split at the marker line into header and answer."""

from __future__ import annotations

from pathlib import Path

from checker.engine._catalog import Puzzle

MARKER = "# ---- your answer: everything below this line is yours to edit ----"


def puzzle_named(puzzle: Puzzle | str) -> Puzzle:
    """`puzzle` itself, or the catalog's puzzle of that name."""
    if isinstance(puzzle, str):
        from checker.engine import _catalog

        by_name = {p.name: p for p in _catalog.puzzles()}
        return by_name[puzzle]
    return puzzle


def reference_path(name: str) -> Path:
    """The kit's reference answer file of puzzle `name`."""
    from checker.engine import _solutions

    folder = _solutions.folder()
    found = sorted(folder.glob(f"*/{name}.py")) if folder is not None else []
    if not found:
        raise FileNotFoundError(f"no reference answer solutions/*/{name}.py")
    return found[0]


def split_reference(name: str, text: str | None = None) -> tuple[str, str]:
    """(header, answer) of a reference file (the kit's, or `text`); the header ends with the marker line."""
    text = reference_path(name).read_text(encoding="utf-8") if text is None else text
    at = text.index(MARKER) + len(MARKER)
    return text[:at] + "\n", text[at:]
