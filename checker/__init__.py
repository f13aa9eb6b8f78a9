"""jacpuzzles' checker: "fill in `jac`" puzzles, judged against `jax.jacfwd`.

The public API is small: check an answer file or a function, read the verdict, render it.
Everything else lives in private modules, one per stage of the pipeline:
catalog -> sampling -> oracles -> runner -> judge -> report.
"""

from checker._catalog import Arg, Chapter, Puzzle, chapters, puzzles
from checker._engine import UnknownPuzzle, check_answer, check_file, check_files, find_answers
from checker._report import VerdictView
from checker._verdict import Cell, Diagnosis, Failure, Kind, Status, Verdict

__all__ = [
    "Arg",
    "Cell",
    "Chapter",
    "Diagnosis",
    "Failure",
    "Kind",
    "Puzzle",
    "Status",
    "UnknownPuzzle",
    "Verdict",
    "VerdictView",
    "chapters",
    "check_answer",
    "check_file",
    "check_files",
    "find_answers",
    "puzzles",
]
