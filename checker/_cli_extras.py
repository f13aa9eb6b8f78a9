"""The learner's-loop commands kept out of `_cli`: `show --svg [--mine]` and `notebook`."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console
from rich.text import Text

from checker._catalog import Puzzle, chapters


def write_picture(puzzle: Puzzle, args: argparse.Namespace, console: Console) -> int:
    """`show NAME --svg FILE [--mine]`: write the expected Jacobian, or yours beside it."""
    from checker._cli import UsageError, _locate
    from checker._stubs import find_answers

    if not args.svg:
        raise UsageError("--mine draws your Jacobian into a picture: give the file to write with --svg FILE")
    out = Path(args.svg)
    if out.parent != Path("") and not out.parent.is_dir():
        raise UsageError(f"cannot write {out}: the folder {out.parent} does not exist")
    if not args.mine:
        from checker._picture import expected_pictures

        out.write_text(expected_pictures([puzzle], args.seed)[puzzle.name], encoding="utf-8")
        console.print(f"wrote the expected Jacobian of {puzzle.name} to {out}")
        return 0
    root = Path(args.dir)
    located = _locate(root, puzzle.name, find_answers(root) if root.is_dir() else {}, args.seed)
    if not isinstance(located, Path):
        console.print(Text(f"nothing to draw: {located.message}", style="yellow"))
        return 1
    from checker._picture import answer_picture

    picture, verdict = answer_picture(puzzle, located, args.seed)
    if picture is None:
        console.print(Text(f"nothing to draw: {puzzle.name} is {verdict.status.value}: {verdict.message}", style="yellow"))
        console.print(Text(f"`jacpuzzles check {puzzle.name}` shows the details; without --mine, --svg draws the expected Jacobian", style="dim"))
        return 1
    out.write_text(picture, encoding="utf-8")
    wrong = verdict.failure.wrong_count if verdict.failure is not None and verdict.failure.wrong is not None else 0
    detail = f", {wrong} wrong {'entry' if wrong == 1 else 'entries'} crossed" if wrong else ""
    console.print(f"wrote yours and the expected Jacobian of {puzzle.name} ({verdict.status.value}{detail}) to {out}")
    return 0 if verdict.passed else 1


def write_notebook(args: argparse.Namespace, console: Console) -> int:
    """`notebook OUT.ipynb [--chapter NAME]`: a chapter as a Jupyter notebook."""
    from checker._cli import UsageError
    from checker._notebook import chapter_named, chapter_notebook, write

    chapter = chapter_named(args.chapter)
    if chapter is None:
        known = ", ".join(c.name for c in chapters())
        raise UsageError(f"no chapter named {args.chapter!r}; the chapters are {known}")
    out = Path(args.out)
    if out.suffix != ".ipynb":
        raise UsageError(f"a notebook file ends in .ipynb; got {out}")
    if out.parent != Path("") and not out.parent.is_dir():
        raise UsageError(f"cannot write {out}: the folder {out.parent} does not exist")
    write(chapter_notebook(chapter), out)
    console.print(f"wrote {len(chapter.puzzles)} puzzles of the {chapter.name} chapter to {out}: open it in Jupyter or upload it to Colab")
    return 0
