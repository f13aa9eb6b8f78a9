"""The bodies of `show --page` (a puzzle's page), `show --svg [--mine]` (its pictures) and
`notebook` (a chapter as a Jupyter notebook); their bad input is a `UsageError`."""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

from rich.console import Console, ConsoleOptions, RenderResult
from rich.padding import Padding
from rich.text import Text

from checker.engine._catalog import Chapter, Puzzle, chapters
from checker.engine._errors import UsageError


class PageRest:
    """What a puzzle's page (docs/puzzles/NAME.md) holds beyond `show`: what the answer is tried
    on, every hint, and the commands for its picture and its reference answer. Made from the
    catalog, so an installed wheel, which has no docs folder, shows it too."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from checker.engine._stubs import draws_plan

        p = self.puzzle
        summary, plan = draws_plan(p)
        yield Text()
        yield Text("What your answer is tried on", style="bold")
        yield Padding(Text(f"{summary}."), (0, 0, 0, 2), expand=False)
        for name, labels in plan:
            yield Padding(Text.assemble("- ", (name, "bold"), ": ", "; ".join(labels)), (0, 0, 0, 2), expand=False)
        yield Text()
        yield Text("Hints", style="bold")
        for k, hint in enumerate(p.hints, 1):
            yield Padding(Text.assemble((f"Hint {k}/{len(p.hints)}: ", "bold"), hint), (0, 0, 0, 2), expand=False)
        yield Text()
        what = "cotangents" if p.is_vjp else "Jacobian"
        yield Text.assemble(
            ("Picture: ", "bold"),
            f"`jacpuzzles show {p.name} --svg {p.name}.svg` draws the expected {what}; add --mine to draw yours beside "
            "it.",
        )
        yield Text.assemble(("Reference answer: ", "bold"), f"`jacpuzzles solution {p.name}`, once yours passes.")


def write_picture(puzzle: Puzzle, args: argparse.Namespace, console: Console) -> int:
    """`show NAME --svg FILE [--mine]`: write the expected Jacobian, or yours beside it."""
    from checker.engine._stubs import find_answers
    from checker.learner._workspace import locate

    if not args.svg:
        raise UsageError("--mine draws your Jacobian into a picture: give the file to write with --svg FILE")
    out = Path(args.svg)
    if out.parent != Path("") and not out.parent.is_dir():
        raise UsageError(f"cannot write {out}: the folder {out.parent} does not exist")
    if not args.mine:
        from checker.learner._picture import expected_pictures

        out.write_text(expected_pictures([puzzle], args.seed)[puzzle.name], encoding="utf-8")
        console.print(f"wrote the expected Jacobian of {puzzle.name} to {out}")
        return 0
    root = Path(args.dir)
    located = locate(root, puzzle.name, find_answers(root) if root.is_dir() else {}, args.seed)
    if not isinstance(located, Path):
        console.print(Text(f"nothing to draw: {located.message}", style="yellow"))
        return 1
    from checker.learner._picture import answer_picture

    picture, verdict = answer_picture(puzzle, located, args.seed)
    if picture is None:
        console.print(
            Text(f"nothing to draw: {puzzle.name} is {verdict.status.value}: {verdict.message}", style="yellow")
        )
        console.print(
            Text(
                f"`jacpuzzles check {puzzle.name}` shows the details; "
                "without --mine, --svg draws the expected Jacobian",
                style="dim",
            )
        )
        return 1
    out.write_text(picture, encoding="utf-8")
    wrong = verdict.failure.wrong_count if verdict.failure is not None and verdict.failure.wrong is not None else 0
    detail = f", {wrong} wrong {'entry' if wrong == 1 else 'entries'} crossed" if wrong else ""
    console.print(f"wrote yours and the expected Jacobian of {puzzle.name} ({verdict.status.value}{detail}) to {out}")
    return 0 if verdict.passed else 1


def _as_in_workspace(chapter: Chapter, root: Path) -> Chapter:
    """`chapter` as the workspace holding `root` has it: in a student's workspace, the
    assignment's puzzles only, each the student's own variant, with the assignment's points."""
    from checker.learner import _workspace

    assigned = _workspace.assignment(root) if root.is_dir() else None
    if assigned is None:
        return chapter
    kept = [p for p in chapter.puzzles if not assigned.puzzles or p.name in assigned.puzzles]
    points = dict(assigned.points)
    return dataclasses.replace(chapter, puzzles=tuple(
        dataclasses.replace(assigned.variant_of(p), points=points.get(p.name, p.points)) for p in kept
    ))


def write_notebook(args: argparse.Namespace, console: Console) -> int:
    """`notebook OUT.ipynb [--chapter NAME]`: a chapter as a Jupyter notebook."""
    from checker.learner._notebook import chapter_named, chapter_notebook, install_requirement, learner_answers, write

    chapter = chapter_named(args.chapter)
    if chapter is None:
        known = ", ".join(c.name for c in chapters())
        raise UsageError(f"no chapter named {args.chapter!r}; the chapters are {known}")
    out = Path(args.out)
    if out.suffix != ".ipynb":
        raise UsageError(f"a notebook file ends in .ipynb; got {out}")
    if out.parent != Path("") and not out.parent.is_dir():
        raise UsageError(f"cannot write {out}: the folder {out.parent} does not exist")
    root = Path(args.dir)
    chapter = _as_in_workspace(chapter, root)
    if not chapter.puzzles:
        from checker.learner._workspace import puzzle_names

        held = ", ".join(dict.fromkeys(c.name for c in chapters() for p in c.puzzles if p.name in puzzle_names(root)))
        raise UsageError(
            f"none of this assignment's puzzles is in the {args.chapter} chapter: pick one of {held} with --chapter"
        )
    answers = {} if args.blank else learner_answers(chapter, root)
    where = "this workspace" if root == Path(".") else str(root)
    install = install_requirement(args.install_from)
    write(chapter_notebook(chapter, answers, install), out)
    console.print(
        f"wrote {len(chapter.puzzles)} puzzles of the {chapter.name} chapter to {out}: open it in Jupyter or upload it "
        "to Colab"
    )
    if answers:
        console.print(
            f"with your answers to {len(answers)} of them, from {where} ({', '.join(answers)}); the others are stubs "
            "(--blank: stubs only)"
        )
    elif not args.blank:
        console.print(Text(f"no answers of yours to this chapter in {where}: every answer cell is a stub", style="dim"))
    return 0
