"""An assignment: which puzzles count and for how many points, the seed, the limits.

`jacpuzzles grade --assignment FILE` reads a TOML file (docs/grading.md, and the template
`docs/templates/assignment.toml`):

    seed = 4021          # optional; so are timeout, memory_mb and jobs
    timeout = 10
    variants = true      # optional: each student gets a variant of each puzzle (needs seed)
    packs = ["../course-pack"]  # optional: puzzle packs (folders), relative to this file

    [puzzles]            # optional: without it, every puzzle with the catalog's points
    cumsum = 3           # points
    neg = true           # the catalog's points

    [students]           # optional: submission name (folder or zip stem) = student id
    "ada-lovelace" = "s1234"

A flag given on the command line wins over the file, which wins over the built-in default.
Every mistake in the file is a `BadSetup` saying what was expected, what was found and where.
"""

from __future__ import annotations

import difflib
import hashlib
import re
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from checker.engine import _catalog
from checker.engine._catalog import UnknownPuzzle, puzzle_named
from checker.engine._errors import JacpuzzlesError
from checker.engine._settings import DEFAULT_SEED, DEFAULT_TIMEOUT

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

DEFAULT_JOBS = 2
DEFAULT_MEMORY_MB = 1024
KEYS = ("seed", "timeout", "memory_mb", "jobs", "variants", "packs", "puzzles", "students")


class BadSetup(JacpuzzlesError):
    """An assignment file, grading flags or a results folder the grader cannot work with: the
    message says what was found where, and what to fix. Exit code 2."""

    exit_code = 2


@dataclass(frozen=True)
class Assignment:
    """What counts: `puzzles` as `(name, points)` in catalog order; None where the file is silent."""

    puzzles: tuple[tuple[str, int], ...]
    seed: int | None = None
    timeout: float | None = None
    memory_mb: int | None = None
    jobs: int | None = None
    variants: bool = False
    students: tuple[tuple[str, str], ...] = ()  # the roster: submission name -> student id
    digest: str = ""  # of the file's bytes: a workspace records it (`init --assignment`)
    packs: tuple[Path, ...] = ()  # puzzle packs' folders, resolved against the file's folder

    def points(self) -> dict[str, int]:
        """Points per puzzle, in catalog order."""
        return dict(self.puzzles)

    def student_id(self, submission: str) -> str:
        """The student id of the submission named `submission` (a folder name or zip stem): the
        roster's entry, else the name itself."""
        return dict(self.students).get(submission, submission)

    def choices(self, student: str) -> dict[str, Any]:
        """The variant of each assigned puzzle that `student` gets, as `{name: choices}`; empty
        when variants are off (every puzzle canonical)."""
        if not self.variants:
            return {}
        from checker.engine import _variants

        return {
            name: dict(_variants.choose(self.seed if self.seed is not None else DEFAULT_SEED, student, name))
            for name, _ in self.puzzles
        }


@dataclass(frozen=True)
class Settings:
    """The values grading uses, once flags, the assignment and the defaults are combined."""

    jobs: int
    timeout: float
    memory_mb: int
    seed: int


def default() -> Assignment:
    """Every puzzle of the catalog, with the catalog's points; the defaults for the rest."""
    return Assignment(tuple((p.name, p.points) for p in _catalog.puzzles()))


def resolve(
    assignment: Assignment, *, jobs: int | None, timeout: float | None, memory_mb: int | None, seed: int | None
) -> Settings:
    """Combine: a value given on the command line (not None) wins, then the file's, then the default."""

    def first(*values: Any) -> Any:
        return next(v for v in values if v is not None)

    return Settings(
        jobs=first(jobs, assignment.jobs, DEFAULT_JOBS),
        timeout=first(timeout, assignment.timeout, DEFAULT_TIMEOUT),
        memory_mb=first(memory_mb, assignment.memory_mb, DEFAULT_MEMORY_MB),
        seed=first(seed, assignment.seed, DEFAULT_SEED),
    )


def read_seed_file(path: Path) -> tuple[int, str]:
    """The seed in `path` (one whole number, 0 or more), and a warning ("" when none): a file any
    user of the machine can read keeps no secret. Raises `BadSetup` when it cannot be read."""
    where = f"--seed-file {path}"
    try:
        info = path.stat()
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BadSetup(
            f"cannot read {where}: {exc.strerror or exc}; write the seed into a file only you can read (chmod 600)"
        ) from None
    except UnicodeDecodeError:
        raise BadSetup(f"{where} is not UTF-8 text: write the seed as digits only, e.g. `echo 4021 > {path}`") from None
    if not re.fullmatch(r"\s*\d+\s*", text):
        raise BadSetup(
            f"{where} holds {text.strip()[:40]!r}, not a whole number 0 or more: write the seed as digits only, e.g. "
            f"`echo 4021 > {path}`"
        )
    warning = ""
    if info.st_mode & 0o044:
        warning = (f"{where} can be read by other users of this machine (mode {stat.S_IMODE(info.st_mode):04o}): "
                   f"the seed is only private once it is not; run `chmod 600 {path}`")
    return int(text), warning


def load(path: Path) -> Assignment:
    """Read and check an assignment file; raises `BadSetup` naming the first mistake."""
    where = f"assignment {path}"
    try:
        raw = tomllib.loads(path.read_bytes().decode("utf-8"))
    except OSError as exc:
        raise BadSetup(
            f"cannot read the {where}: {exc.strerror or exc}; pass an existing TOML file to --assignment"
        ) from None
    except UnicodeDecodeError as exc:
        raise BadSetup(f"{where} is not UTF-8 text (byte {exc.start}); save it as UTF-8") from None
    except tomllib.TOMLDecodeError as exc:
        raise BadSetup(f"{where} is not valid TOML: {exc}; `jacpuzzles docs templates/assignment.toml` prints a "
                       "template") from None
    for key in raw:
        if key not in KEYS:
            raise BadSetup(f"{where}: unknown key {key!r}{_did_you_mean(key, KEYS)}; the keys are {', '.join(KEYS)}")
    variants = raw.get("variants", False)
    if not isinstance(variants, bool):
        raise BadSetup(f"{where}: variants must be true or false, found {_kind(variants)} ({variants!r})")
    if variants and "seed" not in raw:
        raise BadSetup(
            f"{where}: variants = true needs a seed (`seed = 4021`): each student's variants are drawn from it, so it "
            "must not change once stubs are handed out"
        )
    packs = _packs(raw.get("packs", []), path, where)
    if packs:  # the pack's puzzles may be listed in [puzzles]: they must be known first
        try:
            in_use = [folder for folder, _ in _catalog.packs()]  # `--pack` ones first
            _catalog.use_packs(in_use + [p for p in packs if p not in in_use])
        except (_catalog.PackError, _catalog.CatalogError) as exc:
            raise BadSetup(f"{where}: packs: {exc}") from None
    return Assignment(
        puzzles=_puzzles(raw.get("puzzles"), where),
        seed=_number(raw, "seed", 0, where, "a whole number, 0 or more"),
        timeout=_timeout(raw, where),
        memory_mb=_number(raw, "memory_mb", 0, where, "a whole number of megabytes, 0 or more (0: no limit)"),
        jobs=_number(raw, "jobs", 1, where, "a whole number, 1 or more"),
        variants=variants,
        students=_students(raw.get("students"), where),
        digest=hashlib.sha256(path.read_bytes()).hexdigest()[:16],
        packs=packs,
    )


def _packs(value: Any, path: Path, where: str) -> tuple[Path, ...]:
    """The optional `packs` list: folders, relative to the assignment file's folder."""
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise BadSetup(
            f'{where}: packs must be a list of folder paths (`packs = ["../course-pack"]`), found {_kind(value)} '
            f'({value!r})'
        )
    return tuple((path.parent / v).resolve() for v in value)


def _students(table: Any, where: str) -> tuple[tuple[str, str], ...]:
    """The optional `[students]` roster: submission name = student id, ids distinct."""
    if table is None:
        return ()
    if not isinstance(table, dict):
        raise BadSetup(
            f'{where}: students must be a table (`[students]`, then `"submission-name" = "student-id"` lines), found '
            f'{_kind(table)}'
        )
    seen: dict[str, str] = {}
    for name, value in table.items():
        if not isinstance(value, str) or not value.strip():
            raise BadSetup(
                f"{where}: [students] {name!r} must be a student id (a non-empty string), found {_kind(value)} "
                f"({value!r})"
            )
        if value.strip() in seen:
            raise BadSetup(
                f"{where}: [students] {name!r} and {seen[value.strip()]!r} have the same id {value.strip()!r}; give "
                "each student one id"
            )
        seen[value.strip()] = name
    return tuple((name, value.strip()) for name, value in table.items())


def _did_you_mean(word: str, choices: tuple[str, ...] | list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=2, cutoff=0.6)
    return f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""


def _kind(value: Any) -> str:
    """A TOML value's type, in TOML's words."""
    names = {bool: "a boolean", int: "an integer", float: "a float", str: "a string", list: "an array", dict: "a table"}
    return names.get(type(value), type(value).__name__)


def _number(raw: dict[str, Any], key: str, least: int, where: str, expected: str) -> int | None:
    """An optional whole-number setting, checked."""
    if key not in raw:
        return None
    value = raw[key]
    if not isinstance(value, int) or isinstance(value, bool) or value < least:
        found = (
            repr(value)
            if isinstance(value, (int, float)) and not isinstance(value, bool)
            else f"{_kind(value)} ({value!r})"
        )
        raise BadSetup(f"{where}: {key} must be {expected}, found {found}")
    return value


def _timeout(raw: dict[str, Any], where: str) -> float | None:
    """The optional timeout: seconds, more than 0."""
    if "timeout" not in raw:
        return None
    value = raw["timeout"]
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not value > 0 or value == float("inf"):
        raise BadSetup(f"{where}: timeout must be a number of seconds above 0, found {_kind(value)} ({value!r})")
    return float(value)


def _puzzles(table: Any, where: str) -> tuple[tuple[str, int], ...]:
    """The `[puzzles]` table: name = points (or `true` for the catalog's), in catalog order."""
    if table is None:
        return default().puzzles
    if not isinstance(table, dict):
        raise BadSetup(
            f"{where}: puzzles must be a table (`[puzzles]`, then `name = points` lines), found {_kind(table)}"
        )
    if not table:
        raise BadSetup(
            f"{where}: [puzzles] is empty: list the puzzles that count (`cumsum = 3`), or delete the table to use the "
            "whole catalog"
        )
    chosen: dict[str, int] = {}
    for name, value in table.items():
        try:
            puzzle = puzzle_named(name)
        except UnknownPuzzle as exc:
            raise BadSetup(f"{where}: [puzzles]: {exc}") from None
        if value is True:
            chosen[name] = puzzle.points
        elif isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            chosen[name] = value
        elif value is False:
            raise BadSetup(f"{where}: [puzzles] {name} = false: to leave a puzzle out, delete its line")
        else:
            found = str(value) if isinstance(value, (int, float)) else f"{_kind(value)} ({value!r})"
            raise BadSetup(
                f"{where}: [puzzles] {name} must be a whole number of points, 0 or more (or true for the catalog's "
                f"{puzzle.points}), found {found}"
            )
    return tuple((p.name, chosen[p.name]) for p in _catalog.puzzles() if p.name in chosen)
