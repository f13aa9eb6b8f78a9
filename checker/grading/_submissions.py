"""A class's submissions: found in a folder, their answer files read safely, located, digested.

One entry per student in the submissions folder: a folder, or a `.zip` named after the student.
Nothing here writes into that folder. Only a submission's answer files (`<puzzle>.py`) are read,
each opened without following links, as a regular file, at most `FILE_CAP` bytes of it, and
copied into the grader's own scratch folder: the worker and the digest see those copies, never
the submission itself. Whatever goes wrong reading one submission (a damaged, encrypted or
hostile zip, folders nested too deep, too many files) makes it `Unreadable`, with a reason in
the student's terms, and never stops the class.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import stat
import sys
import zipfile
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import IO, BinaryIO

from checker.engine._catalog import puzzle_named
from checker.engine._stubs import relative_path
from checker.grading import _gradebook, _scratch

RESERVED = ("grades", "junit", "summary", "integrity")  # OUT's class-wide files: a student's entry would clash
UNZIPPED_CAP = 64 * 1024 * 1024  # bytes a zip may expand to: a zip bomb is refused, not extracted
FILE_CAP = 1024 * 1024  # bytes of an answer file the grader reads; a larger one is refused unread
DEPTH_CAP = 32  # folders a submission may nest: deeper is refused (no walk, path or copy overflows)
ENTRY_CAP = 100_000  # files and folders (or zip entries) one submission may hold
NAME_CAP = 250  # bytes of a submission's name: `<name>.json` must fit a file name (255 bytes)
RECORD_CAP = 64 * 1024  # bytes of a workspace record (`.jacpuzzles/workspace.toml`) read; larger is unreadable
RECORD_PATH = (".jacpuzzles", "workspace.toml")  # where `init` writes it, at a workspace's root
_CHUNK = 64 * 1024


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
class Skipped:
    """An entry of the submissions folder that is not graded (its name is reserved, shared, too
    long...), and why."""

    name: str
    reason: str


@dataclass(frozen=True)
class Record:
    """What a submission's workspace record (`.jacpuzzles/workspace.toml`, written by `init
    --assignment`) claims: the student id and the assignment's digest, or why it could not be
    read. The student's own file: data for a flag, never for choosing what is graded."""

    path: str
    student: str | None = None
    digest: str | None = None
    problem: str = ""  # why it is unreadable ("" when read)


@dataclass(frozen=True)
class Answers:
    """Where a submission's answer to each puzzle is: a path relative to its root, or why none.

    `root` is the grader's copy of the answer files; `oversized` the answers too large to read
    (puzzle -> bytes), not copied; `ignored` the other files named like an answer, left aside
    because one at the catalog's path won (puzzle -> their paths)."""

    root: Path
    files: dict[str, str]  # puzzle -> path relative to root
    missing: dict[str, tuple[str, str]]  # puzzle -> (status "todo" or "error", message)
    digest: str  # sha256 of the answer files used: their relative paths and bytes
    oversized: dict[str, int] = field(default_factory=dict)
    ignored: dict[str, list[str]] = field(default_factory=dict)
    duplicated: frozenset[str] = frozenset()  # puzzles with several files and none at the catalog's path
    record: Record | None = None  # its workspace record's `[assignment]` claims; None: no record
    # path relative to root -> sha256 of the bytes read (the copy a worker gets is checked against it)
    sums: dict[str, str] = field(default_factory=dict)


def discover(folder: Path) -> tuple[list[Submission], list[Skipped]]:
    """The submissions in `folder`, by name; entries that are neither a folder nor a zip are
    ignored, and those that cannot be graded under their name (reserved, shared by two entries,
    too long, not text, a link) or as they are (another kind of archive) are skipped, with why."""
    by_name: dict[str, list[Path]] = {}
    skipped: list[Skipped] = []
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        if entry.name.startswith("."):
            continue
        path = Path(entry.path)
        is_folder = entry.is_dir()  # through a link: a linked folder is skipped below, with why
        zipped = not is_folder and entry.name.lower().endswith(".zip")
        name = path.stem if zipped else entry.name
        if entry.is_symlink():
            if zipped or is_folder:
                skipped.append(Skipped(name, f"{shown(entry.name)} is a symbolic link: not followed; put the "
                                             "submission itself in the folder"))
            continue
        if is_folder or (zipped and entry.is_file(follow_symlinks=False)):
            by_name.setdefault(name, []).append(path)
        elif zipped:
            skipped.append(Skipped(name, f"{shown(entry.name)} is not a regular file: not read; put the zip file "
                                         "itself in the folder"))
        elif (archive := _other_archive(entry.name)) is not None:
            # Read by nothing, it would leave its student out of grades.csv without a line (RT32).
            skipped.append(Skipped(entry.name[: -len(archive)], f"{shown(entry.name)} is a {archive} archive: the "
                                   "grader reads folders and .zip files; unpack it into a folder, or zip it"))
    found = []
    for name, paths in sorted(by_name.items()):
        problem = _bad_name(name)
        if problem is not None:
            skipped.append(Skipped(name, problem))
        elif len(paths) == 1:
            found.append(Submission(name, paths[0]))
        else:
            skipped.append(Skipped(name, f"{len(paths)} entries share this name "
                                         f"({', '.join(shown(p.name) for p in paths)}); keep one"))
    return found, sorted(skipped, key=lambda s: s.name)


# Archives a student may hand in that the grader does not read: skipped with a line, not ignored.
OTHER_ARCHIVES = (".tar.gz", ".tar.bz2", ".tar.xz", ".tar.zst", ".tgz", ".tar", ".7z", ".rar", ".gz", ".bz2", ".xz")


def _other_archive(file_name: str) -> str | None:
    """The archive suffix of `file_name` among OTHER_ARCHIVES (any case), or None."""
    lower = file_name.lower()
    return next((file_name[-len(s):] for s in OTHER_ARCHIVES if lower.endswith(s) and len(lower) > len(s)), None)


def _bad_name(name: str) -> str | None:
    """Why a submission may not be graded under `name` (its files in OUT are named after it)."""
    if name in RESERVED:
        return f"a submission may not be named {name!r}, the name of the class-wide {name}.* files in OUT; rename it"
    try:
        size = len(name.encode("utf-8"))
    except UnicodeEncodeError:
        return f"the name {shown(name)} is not valid UTF-8 text; rename it"
    if size > NAME_CAP:
        return f"the name is {size} bytes long: at most {NAME_CAP} fit the grader's file names; rename it shorter"
    if not name.isprintable():
        return f"the name {shown(name)} holds control characters; rename it"
    if _gradebook.neutralised(name) != name:
        # Its files and every row would carry it, a CI runner's workflow command where a log shows
        # them (a `cat` of the feedback, a JUnit reporter: red team RT31).
        return (f"the name {shown(name)} holds what a CI runner reads as a workflow command (two colons, or two "
                "hashes and a bracket); rename it")
    if name != name.strip():
        # Variants are drawn for the name without them, and the table shows them as nothing: " alice"
        # would be graded on alice's variants and read as alice (red team RT30).
        return f"the name {name!r} begins or ends with a space; rename it without"
    return None


def shown(name: str) -> str:
    """A file name as text anyone can read: undecodable bytes and control characters escaped, and
    no CI workflow command (`_gradebook.neutralised`)."""
    text = name if name.isprintable() and not any("\udc80" <= c <= "\udcff" for c in name) else ascii(name)
    return _gradebook.neutralised(text)


def _safe(rel: str) -> str:
    """A relative path as the grader copies and shows it: characters that are not printable
    text (control characters, undecodable bytes) replaced by `_`."""
    return "".join(c if c.isprintable() and not "\udc80" <= c <= "\udcff" else "_" for c in rel)


def read(submission: Submission, names: Sequence[str], scratch: Path) -> Answers | Unreadable:
    """Read the answer files of `submission` for the puzzles `names` into `scratch` (an empty
    folder of the grader's), and locate each puzzle's answer."""
    try:
        record: _Candidate | None = None
        if submission.source.is_dir():
            found = _from_folder(submission.source, names)
            record = _folder_record(submission.source)
        else:
            found, record = _from_zip(submission.source, names)
        answers = _locate(found, names, scratch)
        return answers if record is None else dataclasses.replace(answers, record=_record(record))
    except _Refused as refused:
        return Unreadable(refused.reason)
    except OSError as exc:  # a path too long to open or copy, a folder that cannot be listed...
        if _scratch.disk_full(exc):
            raise  # the grader's disk, not the submission: the caller tries again or stops (`_disk.retried`)
        return Unreadable(f"the grader cannot read this submission's files ({exc.strerror or type(exc).__name__}); "
                          "submit your answer files with short names, a few folders deep")


class _Refused(Exception):
    """A submission refused whole: `reason` says why, in the student's terms. Control flow:
    caught in this module and recorded as the submission's outcome, never raised to the user."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class _Candidate:
    """A file named like an answer: where it is, and its bytes or why they were not read."""

    rel: str
    data: bytes | None = None  # None when not read
    size: int = 0
    problem: str | None = None  # "a link", "not a regular file"
    prefix_digest: str = ""  # of the first bytes of a file too large to read


def _answer_name(part: str, wanted: set[str]) -> str | None:
    """The puzzle `part` (a file name) answers, if it is `<puzzle>.py` for a wanted puzzle."""
    if part.endswith(".py") and part[:-3] in wanted:
        return part[:-3]
    return None


def _from_folder(root: Path, names: Sequence[str]) -> dict[str, list[_Candidate]]:
    """Every file of the folder `root` named like a wanted answer, walked without recursion and
    without entering links, hidden folders or `__pycache__`."""
    wanted = set(names)
    found: dict[str, list[_Candidate]] = {}
    stack: list[tuple[str, int]] = [("", 0)]
    seen = 0
    while stack:
        rel_dir, depth = stack.pop()
        with os.scandir(os.path.join(root, rel_dir) if rel_dir else root) as entries:
            listing = sorted(entries, key=lambda e: e.name)
        seen += len(listing)
        if seen > ENTRY_CAP:
            raise _Refused(f"the submission holds more than {ENTRY_CAP} files and folders; submit only your answer "
                           "files")
        for entry in listing:
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            if entry.is_dir(follow_symlinks=False):
                if entry.name.startswith((".", "__")):
                    continue
                if depth + 1 > DEPTH_CAP:
                    raise _Refused(f"folders are nested more than {DEPTH_CAP} deep ({shown(rel[:120])}…); "
                                   "the grader does not look that deep: put your answer files at most a few folders "
                                   "deep")
                stack.append((rel, depth + 1))
                continue
            puzzle = _answer_name(entry.name, wanted)
            if puzzle is None:
                continue
            if entry.is_symlink():
                candidate = _Candidate(_safe(rel), problem="is a symbolic link")
            elif not entry.is_file(follow_symlinks=False):  # a FIFO, a device, a socket: never opened
                candidate = _Candidate(_safe(rel), problem="is not a regular file")
            else:
                candidate = _read_file(os.path.join(root, rel), _safe(rel))
            found.setdefault(puzzle, []).append(candidate)
    return found


def _read_file(path: str, rel: str) -> _Candidate:
    """An answer file's bytes: opened without following a link, as a regular file, capped."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        if os.path.islink(path):
            return _Candidate(rel, problem="is a symbolic link")
        return _Candidate(rel, problem=f"cannot be opened ({exc.strerror or exc})")
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):  # a folder by that name too: io refuses to wrap its descriptor
        os.close(fd)
        return _Candidate(rel, problem="is not a regular file")
    with os.fdopen(fd, "rb", buffering=0) as f:
        return _capped(rel, f, info.st_size)


def _capped(rel: str, f: IO[bytes], size: int) -> _Candidate:
    """Read `f` up to `FILE_CAP` bytes; past it, only a digest of its first bytes is kept."""
    data = f.read(FILE_CAP + 1) if size <= FILE_CAP else None
    if data is not None and len(data) <= FILE_CAP:
        return _Candidate(rel, data, len(data))
    head = hashlib.sha256(data if data is not None else f.read(FILE_CAP + 1))
    return _Candidate(rel, None, max(size, FILE_CAP + 1), prefix_digest=head.hexdigest())


def _folder_record(root: Path) -> _Candidate | None:
    """The workspace record at the folder's root, or in a folder at its root (a workspace handed
    in inside a folder): opened without following links, capped; None when there is none."""
    places = [""] + sorted(e.name for e in os.scandir(root)
                           if e.is_dir(follow_symlinks=False) and not e.name.startswith("."))
    for place in places:
        rel = "/".join([p for p in (place, *RECORD_PATH) if p])
        if os.path.lexists(os.path.join(root, rel)):
            if os.path.islink(os.path.join(root, RECORD_PATH[0]) if not place
                              else os.path.join(root, place, RECORD_PATH[0])):
                return _Candidate(_safe(rel), problem="is in a linked folder")
            return _read_file(os.path.join(root, rel), _safe(rel))
    return None


def _record(candidate: _Candidate) -> Record:
    """The claims of a workspace record's `[assignment]` table, read as data; a record that is
    not a small UTF-8 TOML file with that table's fields as strings is only unreadable."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib

    if candidate.problem is not None or candidate.data is None or len(candidate.data) > RECORD_CAP:
        why = candidate.problem or f"is over {RECORD_CAP // 1024} KB"
        return Record(candidate.rel, problem=f"{candidate.rel} {why}")
    try:
        raw = tomllib.loads(candidate.data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError, ValueError):
        return Record(candidate.rel, problem=f"{candidate.rel} is not a readable TOML file")
    table = raw.get("assignment")
    if table is None:
        return Record(candidate.rel)  # an ordinary (canonical) workspace: nothing claimed
    if not isinstance(table, dict):
        return Record(candidate.rel, problem=f"{candidate.rel}: [assignment] is not a table")
    student, digest = table.get("student"), table.get("digest")
    if not isinstance(student, str) or (digest is not None and not isinstance(digest, str)):
        return Record(candidate.rel, problem=f"{candidate.rel}: [assignment] has no student id as text")
    return Record(candidate.rel, _short(student), _short(digest) if digest is not None else None)


def _short(text: str) -> str:
    """A claim from the record as printable text, at most 100 characters."""
    return shown(text[:100])


def _from_zip(path: Path, names: Sequence[str]) -> tuple[dict[str, list[_Candidate]], _Candidate | None]:
    """Every entry of the zip at `path` named like a wanted answer, read (not extracted) with
    its size capped; any failure of the zip refuses the submission whole, with a plain reason."""
    label = shown(path.name)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise _Refused(f"{label} cannot be opened ({exc.strerror or exc}); resubmit it") from None
    with os.fdopen(fd, "rb") as raw:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise _Refused(f"{label} is not a regular file; resubmit the zip file itself")
        try:
            return _zip_answers(raw, label, set(names))
        except _Refused:
            raise
        except Exception as exc:  # noqa: BLE001 - every way a zip can be broken: one submission's problem
            raise _Refused(_zip_problem(label, exc)) from None


def _zip_answers(raw: BinaryIO, label: str, wanted: set[str]) -> tuple[dict[str, list[_Candidate]], _Candidate | None]:
    with zipfile.ZipFile(raw) as archive:
        entries = archive.infolist()
        if len(entries) > ENTRY_CAP:
            raise _Refused(f"{label} holds more than {ENTRY_CAP} entries; zip only your answer files")
        for info in entries:
            parts = PurePosixPath(info.filename.replace("\\", "/")).parts
            if info.filename.startswith(("/", "\\")) or ".." in parts or (parts and ":" in parts[0]):
                raise _Refused(f"zip entry {info.filename!r} has an absolute path or '..': refused, nothing was "
                               "extracted; zip the answer files with relative paths")
            if len(parts) > DEPTH_CAP + 1:
                raise _Refused(f"zip entry {shown(info.filename[:120])}… is nested more than {DEPTH_CAP} folders deep; "
                               "the grader does not look that deep: put your answer files at most a few folders deep")
        if sum(info.file_size for info in entries) > UNZIPPED_CAP:
            raise _Refused(f"the zip expands to more than {UNZIPPED_CAP // (1024 * 1024)} MB: refused; submit only the "
                           "answer files")
        found: dict[str, list[_Candidate]] = {}
        record: _Candidate | None = None
        for info in sorted(entries, key=lambda i: len(PurePosixPath(i.filename.replace("\\", "/")).parts)):
            parts = PurePosixPath(info.filename.replace("\\", "/")).parts
            if record is None and not info.is_dir() and parts[-2:] == RECORD_PATH and len(parts) <= 3:
                if info.file_size > RECORD_CAP:
                    record = _Candidate(_safe("/".join(parts)), problem=f"is over {RECORD_CAP // 1024} KB")
                else:
                    with archive.open(info) as member:
                        record = _capped(_safe("/".join(parts)), member, info.file_size)
        for info in entries:
            parts = PurePosixPath(info.filename.replace("\\", "/")).parts
            if info.is_dir() or not parts or any(p.startswith((".", "__")) for p in parts[:-1]):
                continue
            puzzle = _answer_name(parts[-1], wanted)
            if puzzle is None:
                continue
            rel = _safe("/".join(parts))
            if any(c.rel == rel for c in found.get(puzzle, [])):
                raise _Refused(f"{label} holds the entry {rel} twice; zip it again")
            with archive.open(info) as member:
                found.setdefault(puzzle, []).append(_capped(_safe(rel), member, info.file_size))
        return found, record


def _zip_problem(label: str, exc: BaseException) -> str:
    """What is wrong with a zip the grader could not read, in the student's terms."""
    text = str(exc)
    if isinstance(exc, RuntimeError) and ("encrypted" in text or "password" in text):
        return (f"{label} is encrypted (password-protected): the grader cannot read it; zip your files again "
                "without a password")
    if isinstance(exc, NotImplementedError):
        return (f"{label} uses a compression method the grader cannot read ({text}); zip your files again with the "
                "standard (deflate) compression")
    if isinstance(exc, UnicodeDecodeError):
        return f"{label} has a file name that is not valid UTF-8 text; rename the files, then zip them again"
    if isinstance(exc, EOFError):
        return f"{label} is cut short (truncated): resubmit it"
    if isinstance(exc, (zipfile.BadZipFile, zlib.error)):
        return f"{label} is damaged ({text}): resubmit it"
    if isinstance(exc, OSError):
        return f"{label} cannot be read ({exc.strerror or type(exc).__name__}): resubmit it"
    return f"{label} is not a readable zip file ({type(exc).__name__}: {text[:200]}): resubmit it"


def _locate(found: dict[str, list[_Candidate]], names: Sequence[str], scratch: Path) -> Answers:
    """Each puzzle's answer among the files found, copied into `scratch`, and the digest."""
    files: dict[str, str] = {}
    missing: dict[str, tuple[str, str]] = {}
    oversized: dict[str, int] = {}
    ignored: dict[str, list[str]] = {}
    duplicated: set[str] = set()
    sums: dict[str, str] = {}
    digest = hashlib.sha256()
    for name in names:
        candidates = found.get(name, [])
        expected = relative_path(puzzle_named(name)).as_posix()
        chosen = _winner(candidates, expected)
        if chosen is None and candidates:
            listing = ", ".join(sorted(c.rel for c in candidates))
            missing[name] = ("error", f"two files for {name}: {listing}; the grader cannot tell which is your answer: "
                                      f"keep one, at {expected}")
            duplicated.add(name)
            continue
        if chosen is None:
            missing[name] = ("todo", f"no answer file {name}.py in the submission (expected at {expected})")
            continue
        others = sorted(c.rel for c in candidates if c is not chosen)
        if others:
            ignored[name] = others
        if chosen.problem is not None:
            missing[name] = ("error", f"{chosen.rel} {chosen.problem}: not read; submit the file itself")
            continue
        digest.update(json.dumps([name, chosen.rel, others]).encode())
        if chosen.data is None:
            oversized[name] = chosen.size
            digest.update(json.dumps(["oversized", chosen.size, chosen.prefix_digest]).encode())
        else:
            target = scratch.joinpath(*chosen.rel.split("/"))
            _scratch.folders(target.parent, scratch)
            _scratch.write(target, chosen.data)
            digest.update(hashlib.sha256(chosen.data).digest())
            sums[chosen.rel] = hashlib.sha256(chosen.data).hexdigest()
        files[name] = chosen.rel
    digest.update(json.dumps(sorted(missing.items())).encode())
    return Answers(scratch, files, missing, digest.hexdigest(), oversized, ignored, frozenset(duplicated), sums=sums)


def _winner(candidates: list[_Candidate], expected: str) -> _Candidate | None:
    """The answer among the files named like it: the only one, the one at the catalog's path
    (`autodiff/cumsum.py`), or the only one ending with that path; None when none wins."""
    if len(candidates) <= 1:
        return candidates[0] if candidates else None
    for rule in _RULES:
        matching = [c for c in candidates if rule(c.rel, expected)]
        if len(matching) == 1:
            return matching[0]
        if matching:
            return None
    return None


_RULES: tuple[Callable[[str, str], bool], ...] = (
    lambda rel, expected: rel == expected,
    lambda rel, expected: rel.endswith("/" + expected),
)


def fingerprint(path: Path) -> str:
    """A digest of a file the grader refused (a bad zip), streamed, at most `UNZIPPED_CAP` bytes
    read: what the journal key needs to notice a resubmission."""
    digest = hashlib.sha256()
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError:
        return ""
    with os.fdopen(fd, "rb", buffering=0) as f:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return ""
        digest.update(json.dumps([info.st_size, info.st_mtime_ns]).encode())
        left = UNZIPPED_CAP
        while left > 0 and (chunk := f.read(min(_CHUNK, left))):
            digest.update(chunk)
            left -= len(chunk)
    return digest.hexdigest()
