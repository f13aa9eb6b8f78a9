"""One error hierarchy: every exception the kit raises to its user derives from
`JacpuzzlesError`, whose `exit_code` the command line returns; the rest are internal, listed here
with the reason each never reaches the user."""

from __future__ import annotations

import ast
import builtins
import importlib
import inspect
import pkgutil

import checker
from checker.engine._errors import JacpuzzlesError, UsageError
from tests.conftest import REPO

# Internal exceptions: control flow inside one module, never raised to the user.
INTERNAL = {
    "checker.engine._forms.FormError",  # the runner turns it into the answer's verdict
    "checker.engine._integrity.Forbidden",  # a BaseException so learner code's `except Exception` cannot eat it
    "checker.engine._runner._Timeout",  # the alarm inside learner code; a BaseException for the same reason
    "checker.engine._runner._Exited",  # learner code's `os._exit`, turned into the end of that answer's run
    "checker.grading._submissions._Refused",  # recorded as the submission's outcome, in the student's terms
    "checker.learner._watch.Cancelled",  # a check stopped by a save or `q`, always caught by the watch loop
}


def _declared() -> dict[str, type[BaseException] | None]:
    """Every exception class defined in `checker`, by qualified name; None for one defined in a
    module that needs an optional dependency (TensorFlow) this environment lacks, whose source is
    read instead: such a class deriving straight from a built-in exception is reported."""
    found: dict[str, type[BaseException] | None] = {}
    for info in pkgutil.walk_packages(checker.__path__, "checker."):
        try:
            module = importlib.import_module(info.name)
        except ModuleNotFoundError as missing:
            assert missing.name is not None and not missing.name.startswith("checker"), missing
            path = REPO / (info.name.replace(".", "/") + ".py")
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef):
                    bases = {b.id for b in node.bases if isinstance(b, ast.Name)}
                    if any(
                        isinstance(getattr(builtins, b, None), type) and issubclass(getattr(builtins, b), BaseException)
                        for b in bases
                    ):
                        found[f"{info.name}.{node.name}"] = None
            continue
        for name, value in vars(module).items():
            if inspect.isclass(value) and issubclass(value, BaseException) and value.__module__ == info.name:
                found[f"{info.name}.{name}"] = value
    return found


def test_every_users_error_derives_from_the_base() -> None:
    declared = _declared()
    outside = sorted(
        name
        for name, cls in declared.items()
        if name not in INTERNAL and (cls is None or not issubclass(cls, JacpuzzlesError))
    )
    assert not outside, (
        f"derive these from checker.engine._errors.JacpuzzlesError, or list them in INTERNAL with the reason: {outside}"
    )
    assert sorted(INTERNAL - set(declared)) == [], "INTERNAL names a class that no longer exists"
    # The ones the CLI has always caught are still there, each with the exit code it gave.
    codes = {
        name.rsplit(".", 1)[1]: cls.exit_code
        for name, cls in declared.items()
        if cls is not None and issubclass(cls, JacpuzzlesError)
    }
    assert {
        "UsageError",
        "BadSetup",
        "WorkspaceError",
        "PackError",
        "PackExists",
        "CatalogError",
        "UnknownPuzzle",
        "MissingSolution",
        "KeyProblem",
    } <= {n for n, code in codes.items() if code == 2}
    assert codes["OracleDisagreement"] == codes["WorkerFailure"] == codes["JacpuzzlesError"] == 1


def test_the_base_is_public_and_old_catches_still_work() -> None:
    assert checker.JacpuzzlesError is JacpuzzlesError and "JacpuzzlesError" in checker.__all__
    assert issubclass(checker.UnknownPuzzle, LookupError) and issubclass(checker.UnknownPuzzle, JacpuzzlesError)
    try:
        checker.use_packs()
        from checker.engine._catalog import puzzle_named

        puzzle_named("no_such_puzzle")
    except LookupError as exc:  # how a notebook user caught it before the base existed
        assert isinstance(exc, checker.UnknownPuzzle) and "no puzzle named 'no_such_puzzle'" in str(exc)
    else:
        raise AssertionError("an unknown name must raise UnknownPuzzle")
    assert UsageError("x").exit_code == 2
