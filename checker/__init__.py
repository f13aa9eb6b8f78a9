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
    # `X as X`: re-exported for type checkers (the names themselves are imported on first use).
    from checker.engine._catalog import (
        Arg as Arg,
        Chapter as Chapter,
        Puzzle as Puzzle,
        UnknownPuzzle as UnknownPuzzle,
        chapters as chapters,
        puzzles as puzzles,
        use_packs as use_packs,
    )
    from checker.engine._engine import (
        check_answer as check_answer,
        check_file as check_file,
        check_files as check_files,
    )
    from checker.engine._errors import (
        JacpuzzlesError as JacpuzzlesError,
    )
    from checker.engine._report import (
        VerdictView as VerdictView,
    )
    from checker.engine._stubs import (
        find_answers as find_answers,
    )
    from checker.engine._verdict import (
        Cell as Cell,
        Diagnosis as Diagnosis,
        Failure as Failure,
        Kind as Kind,
        Status as Status,
        Verdict as Verdict,
    )
    from checker.learner._notebook import (
        Checked as Checked,
        check as check,
    )

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
