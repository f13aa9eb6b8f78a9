"""jacpuzzles' checker: "fill in `jac`" puzzles, judged against `jax.jacfwd`.

The public API is small: check an answer file or a function, read the verdict, draw it.
Everything else lives in private modules, one per stage of the pipeline:
catalog -> sampling -> oracles -> runner -> judge -> report.

Names are imported on first use, so `jacpuzzles list`, `show` and `hint` start without numpy,
JAX or the array-type checks.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from checker.engine._catalog import Arg, Chapter, Puzzle, UnknownPuzzle, chapters, puzzles, use_packs
    from checker.engine._engine import check_answer, check_file, check_files
    from checker.engine._errors import JacpuzzlesError
    from checker.learner._notebook import Checked, check
    from checker.engine._report import VerdictView
    from checker.engine._stubs import find_answers
    from checker.engine._verdict import Cell, Diagnosis, Failure, Kind, Status, Verdict

_HOME = {
    "checker.engine._catalog": ("Arg", "Chapter", "Puzzle", "UnknownPuzzle", "chapters", "puzzles", "use_packs"),
    "checker.engine._engine": ("check_answer", "check_file", "check_files"),
    "checker.engine._errors": ("JacpuzzlesError",),
    "checker.learner._notebook": ("Checked", "check"),
    "checker.engine._report": ("VerdictView",),
    "checker.engine._stubs": ("find_answers",),
    "checker.engine._verdict": ("Cell", "Diagnosis", "Failure", "Kind", "Status", "Verdict"),
}
_WHERE = {name: module for module, names in _HOME.items() for name in names}
__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'checker' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
