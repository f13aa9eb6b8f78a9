"""A class's submissions: found in a folder, unpacked safely, their answer files located, digested.

One entry per student in the submissions folder: a folder, or a `.zip` named after the student.
Nothing here writes into that folder: zips are extracted into a temporary folder, entries with
an absolute path or `..` are refused, and answer files reached through a symlink that leads out
of the submission are not read. A submission that cannot be opened is `Unreadable`, with the
reason, for the grader to report as ungradable.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Sequence

from checker._stubs import find_answers, relative_path
from checker._catalog import puzzle_named

RESERVED = ("grades", "junit", "summary")  # OUT's class-wide files: a student's entry would clash
UNZIPPED_CAP = 64 * 1024 * 1024  # bytes a zip may expand to: a zip bomb is refused, not extracted


@dataclass(frozen=True)
class Submission:
    """One student's entry: its name (folder name or zip stem) and where it is."""

    name: str
    source: Path


@dataclass(frozen=True)
class Unreadable:
    """Why a submission cannot be graded at all."""

    reason: str


@dataclass(frozen=True)
class Answers:
    """Where a submission's answer to each puzzle is: a path relative to its root, or why none."""

    root: Path
    files: dict[str, str]  # puzzle -> path relative to root
    missing: dict[str, tuple[str, str]]  # puzzle -> (status "todo" or "error", message)
    digest: str  # sha256 of the answer files used: their relative paths and bytes


def discover(folder: Path) -> tuple[list[Submission], list[Unreadable]]:
    """The submissions in `folder`, by name; entries that are neither a folder nor a zip are
    skipped, and two entries with one name are both refused."""
    by_name: dict[str, list[Path]] = {}
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.is_dir() or (entry.is_file() and entry.suffix.lower() == ".zip"):
            by_name.setdefault(entry.stem if entry.is_file() else entry.name, []).append(entry)
    found, clashes = [], []
    for name, paths in sorted(by_name.items()):
        if name in RESERVED:
            clashes.append(Unreadable(f"{name}: a submission may not be named {name!r}, the name of the class-wide {name}.* files in OUT; rename it"))
        elif len(paths) == 1:
            found.append(Submission(name, paths[0]))
        else:
            clashes.append(Unreadable(f"{name}: {len(paths)} entries share this name ({', '.join(p.name for p in paths)}); keep one"))
    return found, clashes


def unpack(submission: Submission, scratch: Path) -> Path | Unreadable:
    """The folder holding the submission's files: the folder itself, or its zip extracted into
    `scratch` (which must be empty)."""
    if submission.source.is_dir():
        return submission.source
    try:
        with zipfile.ZipFile(submission.source) as archive:
            refused = _refused(archive.infolist())
            if refused is not None:
                return refused
            archive.extractall(scratch)
    except (zipfile.BadZipFile, OSError, EOFError) as exc:
        return Unreadable(f"{submission.source.name} is not a readable zip file ({exc}); resubmit it")
    return scratch


def _refused(entries: Sequence[zipfile.ZipInfo]) -> Unreadable | None:
    """Why a zip's entries may not be extracted (a path leaving the folder, a bomb), or None."""
    for info in entries:
        parts = PurePosixPath(info.filename.replace("\\", "/")).parts
        if info.filename.startswith(("/", "\\")) or ".." in parts or (parts and ":" in parts[0]):
            return Unreadable(f"zip entry {info.filename!r} has an absolute path or '..': refused, nothing was extracted; zip the answer files with relative paths")
    if sum(info.file_size for info in entries) > UNZIPPED_CAP:
        return Unreadable(f"the zip expands to more than {UNZIPPED_CAP // (1024 * 1024)} MB: refused; submit only the answer files")
    return None


def locate(root: Path, names: Sequence[str]) -> Answers:
    """Each puzzle's answer file under `root`, found as `check` finds them (`<puzzle>.py` at any
    depth); a file that resolves outside `root` (a symlink out) is not used."""
    base = root.resolve()
    found = find_answers(root)
    files: dict[str, str] = {}
    missing: dict[str, tuple[str, str]] = {}
    digest = hashlib.sha256()
    for name in names:
        paths = found.get(name, [])
        inside = [p for p in paths if p.resolve().is_relative_to(base) and p.is_file()]
        outside = [p for p in paths if p not in inside]
        expected = relative_path(puzzle_named(name)).as_posix()
        if len(inside) > 1:
            listing = ", ".join(p.relative_to(root).as_posix() for p in inside)
            missing[name] = ("error", f"{len(inside)} files named {name}.py in the submission: {listing}; keep one")
        elif inside:
            rel = inside[0].relative_to(root).as_posix()
            files[name] = rel
            digest.update(json.dumps([name, rel]).encode())
            digest.update(hashlib.sha256(inside[0].read_bytes()).digest())
        elif outside:
            missing[name] = ("error", f"{outside[0].relative_to(root).as_posix()} is a link out of the submission or not a regular file: not read; submit the file itself")
        else:
            missing[name] = ("todo", f"no answer file {name}.py in the submission (expected at {expected})")
    digest.update(json.dumps(sorted(missing.items())).encode())
    return Answers(root, files, missing, digest.hexdigest())
