"""Files generated from the catalog: learner stubs, the headers of reference answers, doc pages.

A stub and a reference answer share a header (statement, imports, the canonical `f`) and differ
below `MARKER`: the stub holds the `jac` signature and `raise NotImplementedError`, the answer
holds a working `jac`. `python -m checker dev generate` writes them; `dev check` (and a test)
fails when a committed file has drifted from the catalog.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from checker.engine._catalog import Chapter, Puzzle, puzzles

MARKER = "# ---- your answer: everything below this line is yours to edit ----"
_IMPORTS = """\
import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped
"""


def relative_path(puzzle: Puzzle) -> Path:
    """Where a puzzle's file lives, under `puzzles/` and under `solutions/` alike."""
    return Path(puzzle.chapter) / f"{puzzle.name}.py"


def header(puzzle: Puzzle) -> str:
    """Everything above `MARKER`: statement as docstring, imports, the canonical `f`."""
    statement = textwrap.indent(puzzle.statement, "    ").strip()
    doc = (
        f'r"""Puzzle `{puzzle.name}` ({puzzle.chapter} chapter): {puzzle.title}.\n\n'
        f"    {statement}\n\n"
        f"    {_task(puzzle)}"
        f"Check it with `jacpuzzles check {puzzle.name}`; stuck? `jacpuzzles hint {puzzle.name}`.\n"
        '"""\n'
    )
    doc = doc.replace('    """', '"""')
    return (
        f"{doc}\n{_IMPORTS}\n\n# The function to differentiate (read it; the checker uses its own "
        f"copy).\n{puzzle.code}\n\n"
    )


def _task(puzzle: Puzzle) -> str:
    """What to fill in, in the words of the answer contract."""
    f = puzzle.function or puzzle.name
    if not puzzle.is_vjp:
        return (
            f"Fill in `jac` so that it returns the full Jacobian of `{f}`, exactly what\n"
            f"    `jax.jacfwd({f}, argnums={puzzle.argnums})` returns: output axes first,\n"
            f"    then input axes. "
        )
    wrt = ", ".join(f"d{a.name}" if len(a.name) == 1 else f"d_{a.name}" for a in puzzle.wrt)
    rule = "the custom gradient described above" if puzzle.backward else f"`jax.vjp({f}, ...)` (the chain rule)"
    return (
        f"A backward-pass puzzle: fill in `vjp`, which takes f's arguments and the upstream\n"
        f"    gradient `g` (shaped like f's output) and returns {wrt}: what {rule}\n"
        f"    gives for that `g`, one array per floating argument, shaped like the argument.\n    "
    )


def stub(puzzle: Puzzle) -> str:
    """The learner's starting file."""
    return (
        f"{header(puzzle)}{MARKER}\n"
        f"{puzzle.jac_signature()}\n"
        f"    raise NotImplementedError  # replace with your {'backward pass' if puzzle.is_vjp else 'Jacobian'}\n"
    )


def answer_part(text: str) -> str:
    """What the learner wrote: the text below `MARKER` (all of it when the marker is gone)."""
    head, sep, tail = text.partition(MARKER)
    return tail if sep else text


def doc_page(puzzle: Puzzle, number: int) -> str:
    """A Markdown page for one puzzle."""
    hints = "\n".join(
        f"<details><summary>Hint {k}</summary>\n\n{h}\n\n</details>\n" for k, h in enumerate(puzzle.hints, 1)
    )
    shapes = ", ".join(str(s) for s in puzzle.jac_shapes())
    what = "Cotangent" if puzzle.is_vjp else "Jacobian"
    return (
        f"# {number}. {puzzle.title} (`{puzzle.name}`)\n\n"
        f"Chapter: {puzzle.chapter} · points: {puzzle.points} · "
        f"file: `puzzles/{relative_path(puzzle).as_posix()}`\n\n"
        f"{puzzle.statement}\n\n"
        f"```python\n{puzzle.code}```\n\n"
        f"Fill in:\n\n```python\n{puzzle.jac_signature()}\n    ...\n```\n\n"
        f"{what} shape{'s' if len(puzzle.jac_shapes()) > 1 else ''}: {shapes}. "
        f"Check with `jacpuzzles check {puzzle.name}`.\n\n"
        f"![The expected {what.lower()} of {puzzle.name} on one random input: rows are output entries, "
        f"columns input entries; red positive, blue negative, white zero](img/{picture_path(puzzle).name})\n\n"
        f"{_draws_section(puzzle)}"
        f"## Hints\n\n{hints}"
    )


def _draws_section(puzzle: Puzzle) -> str:
    """What the checker tries this puzzle on, from the sampler itself (docs/checker.md explains)."""
    summary, plan = draws_plan(puzzle)
    lines = [
        "## What your answer is tried on",
        "",
        f"{summary} ([how inputs are drawn](../checker.md#the-inputs-draws)).",
        "",
    ]
    for name, labels in plan:
        lines.append(f"- `{name}`: " + "; ".join(labels))
    return "\n".join(lines) + "\n\n"


def draws_plan(puzzle: Puzzle) -> tuple[str, list[tuple[str, list[str]]]]:
    """How many draws the checker tries, in a sentence, and per argument the structures it is put
    through (for the puzzle's page, in the docs and in `jacpuzzles show NAME --page`)."""
    from checker.engine import (
        _sampling,  # numpy: only the pages need it, not `list`
        _zeros,
    )

    total = len(_sampling.draws(puzzle, 0))
    found = _zeros.found(puzzle, _sampling.SAMPLER)
    extra = ([f"{len(found.zeros)} inputs where an entry of the Jacobian crosses zero (the same on every seed)"]
             if found.zeros else [])
    extra += [f"near-ties inside each group of `{puzzle.args[k].name}` that competes for an output"
              for k, _ in found.groups]
    extra += [f"`{a.name}` at {', '.join(f'{m:g}' for m in a.magnitudes)} times its domain" for a in puzzle.args
              if a.magnitudes]
    together = _sampling._together(puzzle)
    if together:
        extra.append(", ".join(f"`{puzzle.args[k].name}`" for k in together) + " together at "
                     + ", ".join(f"{m:g}" for m in _sampling.TOGETHER_SCALES) + " times the domain")
        if puzzle.level_steps:
            extra.append(", ".join(f"`{puzzle.args[k].name}`" for k in together) + " with every entry at the "
                         f"domain's edge times {len(puzzle.level_steps)} steps of every decade from 1e-12 to 0.1")
    region, m = _sampling._corner_region(puzzle)
    if region:
        names = ", ".join(f"`{puzzle.args[k].name}`" for k in region)
        extra.append(f"{names} at the corners of {m:g} times the domain")
    extra += [
        f"`{a.name}`'s entries close together far from 0 (a common offset of "
        + ", ".join(f"{m:g} to {_sampling.OFFSET_DECADE * m:g}" for m in a.offsets) + ")"
        for a in puzzle.args if a.offsets
    ]
    extra += [f"`{a.name}`'s entries within " + ", ".join(f"{m:g}" for m in a.spreads) + " of one another, relatively"
              for a in puzzle.args if a.spreads]
    extra += [f"`{a.name}`'s entries within " + ", ".join(f"{m:g}" for m in a.cancelling_spreads)
              + " of one another, relatively, compared to a looser tolerance (every right answer's rounding is "
              "beyond the contract there)" for a in puzzle.args if a.cancelling_spreads]
    extra += [f"`{a.name}`'s entries at two levels " + ", ".join(f"{m:g}" for m in a.ranges) + " apart"
              for a in puzzle.args if a.ranges]
    extra += [f"`{a.name}`'s rows along one axis, with `{a.aligned_with}`'s entries on it within "
              + ", ".join(f"{m:g}" for m in a.aligned_spreads) + " of one another, relatively"
              for a in puzzle.args if a.aligned_spreads]
    extra += [f"`{a.name}`'s rows equal along one axis, with one of `{a.aligned_with}`'s entries on it ahead of the "
              "others by " + ", ".join(f"{m:g}" for m in a.aligned_leads)
              for a in puzzle.args if a.aligned_leads]
    extra += [f"every line of `{a.name}` with its own largest entry ahead of the rest by "
              + ", ".join(f"{m:g}" for m in a.row_leads) + (f" (`{a.row_leads_label}` on those entries)"
                                                             if a.row_leads_label else "")
              for a in puzzle.args if a.row_leads]
    extra += [f"`{a.name}`'s largest entry ahead of the others by " + ", ".join(f"{m * a.lead_unit:g}" for m in a.leads)
              for a in puzzle.args if a.leads]
    extra += [f"every entry of `{a.name}` between " + ", ".join(f"{lo:g} and {hi:g}" for lo, hi in a.intervals)
              for a in puzzle.args if a.intervals]
    extra += [f"one entry of `{a.name}` between " + ", ".join(f"{lo:g} and {hi:g}" for lo, hi in a.one_entry_in)
              for a in puzzle.args if a.one_entry_in]
    summary = (
        f"{_sampling._random_count(puzzle)} stratified random draws, then each argument's special "
        f"structures, pairs of them, and coincidences between arguments"
        + "".join(f"; {e}" for e in extra)
        + f": {total} draws on seed 0, as many on every seed"
    )
    return summary, _sampling.plan(puzzle)


def picture_path(puzzle: Puzzle) -> Path:
    """Where a puzzle's picture lives, under the repository root."""
    return Path("docs") / "puzzles" / "img" / f"{puzzle.name}.svg"


def doc_index(chs: tuple[Chapter, ...]) -> str:
    """The index page of all puzzle pages."""
    lines = ["# The puzzles", "", "Generated from the catalog (`checker/_data/`); do not edit by hand.", ""]
    number = 0
    for ch in chs:
        lines += [f"## {ch.title}", "", ch.summary, ""]
        for p in ch.puzzles:
            number += 1
            lines.append(f"{number}. [{p.title}]({p.name}.md) (`{p.name}`, {p.points} pt)")
        lines.append("")
    return "\n".join(lines)


def _is_untouched(answer: str) -> bool:
    # A stub's answer part from any version of the catalog: the signature and the raise, nothing else.
    lines = [line for line in answer.strip().splitlines() if line.strip()]
    return (
        len(lines) == 2
        and lines[0].startswith(("def jac(", "def vjp("))
        and lines[1].strip().startswith("raise NotImplementedError")
    )


def find_answers(root: str | Path) -> dict[str, list[Path]]:
    """Answer files under `root` by puzzle name (`<name>.py` at any depth), hidden folders skipped."""
    names = {p.name for p in puzzles()}
    found: dict[str, list[Path]] = {}
    base = Path(root)
    for path in sorted(base.rglob("*.py")):
        rel = path.relative_to(base).parts
        if path.stem in names and not any(part.startswith((".", "__")) for part in rel[:-1]):
            found.setdefault(path.stem, []).append(path)
    return found
