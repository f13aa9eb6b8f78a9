"""The documentation pages, read where the kit is installed: `jacpuzzles docs PAGE`.

Messages and `--help` texts send the reader to a page by this command (`pointer`), not to a
path under `docs/`: a learner who installed the wheel has no `docs/` folder. The wheel carries
a copy of the pages, made from `docs/` each time a wheel is built (setup.py), as
`checker/_docs/`; a source checkout, editable install included, reads `docs/` itself. So there
is one source, and no second copy to drift.
"""

from __future__ import annotations

from pathlib import Path

from checker.engine._errors import JacpuzzlesError

PACKAGED = Path(__file__).parents[1] / "_docs"  # in a wheel: the copy made at build time
SOURCE = Path(__file__).parents[2] / "docs"  # beside the package in a source checkout
# The pages a wheel carries: every page of docs/ but the generated puzzle pages (`jacpuzzles
# show NAME --page` prints those), and the instructors' templates.
PAGES = ("*.md", "templates/*.toml", "templates/*.yml")


class UnknownPage(JacpuzzlesError):
    """`jacpuzzles docs NAME` with a NAME no page has; the message lists the pages."""

    exit_code = 2

    def __init__(self, name: str, known: list[str]) -> None:
        self.name, self.known = name, known
        super().__init__(f"no documentation page {name!r}; the pages are: {', '.join(known)} (`jacpuzzles docs` lists "
                         "them)")


def folder() -> Path | None:
    """The folder of pages: the packaged copy, else the source checkout's `docs/`."""
    return next((p for p in (PACKAGED, SOURCE) if p.is_dir()), None)


def pages() -> dict[str, Path]:
    """Every page by the name `jacpuzzles docs` takes: `grading` for grading.md,
    `templates/assignment.toml` for a template, in that order."""
    root = folder()
    if root is None:
        return {}
    found: dict[str, Path] = {}
    for pattern in PAGES:
        for path in sorted(root.glob(pattern)):
            relative = path.relative_to(root).as_posix()
            found[relative.removesuffix(".md")] = path
    return found


def page(name: str) -> tuple[str, Path]:
    """The text of the page `name` (`grading`, `grading.md` or `docs/grading.md` alike) and its
    file; `UnknownPage` when there is none."""
    key = name.partition("#")[0].removeprefix("docs/").removesuffix(".md")
    known = pages()
    path = known.get(key)
    if path is None:
        raise UnknownPage(name, list(known))
    return path.read_text(encoding="utf-8"), path


def pointer(name: str, section: str | None = None) -> str:
    """How a message names a page: the command that prints it, from any install."""
    return f"`jacpuzzles docs {name}`" + (f", section \"{section}\"" if section else "")
