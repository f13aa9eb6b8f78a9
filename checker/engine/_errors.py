"""The kit's errors: one base, `JacpuzzlesError`, for every error the kit raises to its user.

Each error's message is whole: what was expected, what was found, where, and what to do next;
`exit_code` is the command line's exit code when the error ends a command (2 for input or
set-up the user can fix, 1 for a fault of the kit or of the grading machine). The command line
catches the base once and prints the message as one line.

The classes live beside the code that raises them (`UnknownPuzzle` in the catalog, `BadSetup`
in the assignment...) and derive from the base defined here; `UsageError` belongs to no stage and
lives here. Exceptions used for control flow inside one module (a check cancelled by a save, a
submission refused whole, learner code's alarm) are private to it and never reach the user.
"""

from __future__ import annotations

from typing import ClassVar


class JacpuzzlesError(Exception):
    """Base of every error the kit raises to its user: `str(error)` is the whole message, one
    line that says what to do; `exit_code` is the command line's exit code for it. Catch this to
    catch any of the kit's errors (`except checker.JacpuzzlesError`)."""

    exit_code: ClassVar[int] = 1


class UsageError(JacpuzzlesError):
    """Command-line input that cannot be used as given (a flag missing its partner, a folder that
    does not exist, a file name of the wrong kind); the message names the input and what to
    give instead. Exit code 2."""

    exit_code = 2
