"""The scratch disk: the grader's scratch folder, the free space of its file system, and the
other grading runs that share it.

Jobs make their folders in the scratch folder (as root with namespaces, each job's folder is a
tmpfs of its own), and another grading run's jobs may write to the same file system from
another TMPDIR. A job whose results could not be written for want of room may have lost them to
someone else's files. So the grader watches the free space while jobs run (`Watch`), runs such a
job again alone, and blames its answer only when nothing else could have filled the disk: no
other job of this run, no other grading run on that file system (`sharing`), and a disk that has
room again once the job's processes are gone (`_sandbox.Pool._attempts`).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import socket
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

from checker.engine._assignment import BadSetup
from checker.engine._runner import Problem
from checker.engine._verdict import Kind
from checker.grading._scratch import disk_full, remove_tree, unlock_tree
from checker.grading._worker import DISK_FULL

# Below this many MB free on the scratch folder's file system, a job that left puzzles without a
# result may have lost them to a full disk (a classmate's files): not its answer's doing.
FLOOR_MB, FLOOR_FILES = 64, 1000
# A job whose own folder holds this much when the disk is full filled it itself: its answer's doing.
OWN_MB, OWN_FILES = 64, 10_000
LOOK = 0.02  # seconds between two looks at the scratch folder's free space (`Watch`)
WAIT = 5.0  # seconds a job that met a full disk waits for room once it runs alone
# The grader's own files on a full disk (another run's submission may fill it for a moment: red
# team RT21) are tried this many times, PAUSE seconds apart (`retried`).
TRIES = 3
PAUSE = 1.0
SCRATCH_PREFIX = "jacpuzzles-grade-"  # a grading run's scratch folder, in TMPDIR
# Each grading run binds an abstract unix socket named for its scratch folder's file system and
# folder (`_announced`): another run finds it in /proc/net/unix whatever its TMPDIR, and it is gone
# with the process that bound it, however that process ended.
ANNOUNCED = "jacpuzzles-grade"
UNIX_TABLE = Path("/proc/net/unix")
T = TypeVar("T")


def advice(folder: Path | str, what: str) -> str:
    """What the instructor reads when the scratch disk is full: `what` failed, and what to do."""
    return (f"the file system of the scratch folder {folder} is full: {what}. Free space there, or point TMPDIR at a "
            "file system of its own (one that no other grading run or program fills), and run the same command "
            "again")


def retried(make: Callable[[], T], folder: Path | str, what: str) -> T:
    """`make()`, tried again PAUSE seconds apart while the disk is full, TRIES times in all; then
    a `BadSetup` (exit 2) saying `what` failed on the full `folder`."""
    for tries_left in reversed(range(TRIES)):
        try:
            return make()
        except OSError as exc:
            if not disk_full(exc):
                raise
            if not tries_left:
                raise BadSetup(advice(folder, what)) from None
        time.sleep(PAUSE)
    raise AssertionError("unreachable: the last try returns or raises")


@contextlib.contextmanager
def scratch_folder(prefix: str = SCRATCH_PREFIX) -> Iterator[str]:
    """A temporary folder of the grader's, removed afterwards whatever a worker left in it, and
    locked and announced meanwhile: another grading run finds it in use (`sharing`)."""
    folder = retried(lambda: tempfile.mkdtemp(prefix=prefix), tempfile.gettempdir(),
                     "the grader could not make its own folder there")
    held = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a folder of its own: never held by another
        with _announced(Path(folder)):
            yield folder
    finally:
        os.close(held)
        remove_tree(Path(folder))


@contextlib.contextmanager
def _announced(folder: Path) -> Iterator[None]:
    """An abstract unix socket naming `folder` and its file system, bound while the block runs
    (where sockets cannot be made, nothing: the lock on the folder still tells runs beside it)."""
    try:
        held = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_CLOEXEC)
    except OSError:
        yield
        return
    with held:
        with contextlib.suppress(OSError):
            held.bind(_name(folder).encode())
        yield


def _name(folder: Path) -> str:
    return f"\0{ANNOUNCED}:{os.stat(folder).st_dev}:{folder.name}"


def sharing(scratch: Path) -> str | None:
    """Another live grading run that may share the disk of `scratch`, or None. Its students'
    files fill the same disk, so a job of this run is not alone when it runs alone here (red
    team RT21: two shards of one class graded side by side, from one TMPDIR or from two).
    Device numbers do not tell which runs share a disk (an overlay and the disk beneath it have
    different ones: red team RT23), so every other run this one can see counts."""
    return _beside(scratch) or _elsewhere(scratch)


def _elsewhere(scratch: Path) -> str | None:
    """Another grading run's announced scratch folder, in any folder (`announced`)."""
    others = announced(scratch)
    return f"scratch folder {others[0]}, from another TMPDIR" if others else None


def announced(scratch: Path) -> list[str]:
    """The scratch folders (`<device>:<name>`) other grading runs announce, as /proc/net/unix
    lists the abstract sockets of this network namespace."""
    try:
        mine = _name(scratch)[1:]
        table = UNIX_TABLE.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    found = []
    for line in table.splitlines()[1:]:
        fields = line.split(maxsplit=7)
        name = fields[7][1:] if len(fields) == 8 and fields[7].startswith("@") else ""
        if name.startswith(f"{ANNOUNCED}:") and name != mine:
            found.append(name[len(ANNOUNCED) + 1:])
    return found


class Watch:
    """The scratch folder's free space, looked at every LOOK seconds while the pool runs.

    A classmate's files can be gone again by the time a job has ended (held open and unlinked,
    they are freed with the process that held them), so the grader looks while jobs run. What a
    job says (its worker's DISK_FULL status) an answer can say without filling anything: it
    earns the job a run alone (`Pool._attempts`), never a mark."""

    def __init__(self, folder: Path, stopped: threading.Event) -> None:
        self.folder = folder
        self.last_full = -1.0  # time.monotonic() when the disk was last seen below the floor
        self._stopped = stopped
        threading.Thread(target=self._look, name="disk-watch", daemon=True).start()

    def _look(self) -> None:
        while not self._stopped.wait(LOOK):
            if below_floor(self.folder):
                self.last_full = time.monotonic()

    def full_since(self, began: float) -> bool:
        """Whether the disk was seen full at `began` (time.monotonic()) or later, now included."""
        return self.last_full >= began or below_floor(self.folder)

    def room_within(self, seconds: float, freed: tuple[int, int] = (0, 0)) -> bool:
        """Whether the disk has room, now or within `seconds` (files held open by a process
        that has just ended are freed with it), counting `freed` (bytes, files: a job's folder
        about to be removed) as free."""
        deadline = time.monotonic() + seconds
        while below_floor(self.folder, freed):
            if time.monotonic() >= deadline:
                return False
            time.sleep(LOOK)
        return True



def _beside(scratch: Path) -> str | None:
    """Another live grading run's scratch folder beside `scratch`, or None: each run holds a
    lock on its own while it runs (a folder left by a killed run holds none). One this user may
    not open (another user's, 0711) cannot be tested, and counts as live (red team RT23: a run
    in a network namespace of its own does not see the other's announcement)."""
    try:
        siblings = [entry for entry in os.scandir(scratch.parent)
                    if entry.name.startswith(SCRATCH_PREFIX) and entry.path != str(scratch)]
    except OSError:
        return None
    for entry in siblings:
        try:
            if not entry.is_dir(follow_symlinks=False):
                continue
            fd = os.open(entry.path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except PermissionError:
            return f"{entry.path}, another user's"
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return entry.path  # held: a grading run is using it
        finally:
            os.close(fd)
    return None


def below_floor(folder: Path, freed: tuple[int, int] = (0, 0)) -> bool:
    """Whether the file system of `folder` has less than FLOOR_MB or FLOOR_FILES free,
    `freed` (bytes, files) counted as free."""
    try:
        found = os.statvfs(folder)
    except OSError:
        return False
    # 0 files: a file system without a table
    short_of_files = found.f_files > 0 and found.f_favail + freed[1] < FLOOR_FILES
    return found.f_bavail * found.f_frsize + freed[0] < FLOOR_MB * 1024 * 1024 or short_of_files


def own_use(home: Path) -> tuple[int, int]:
    """Bytes and files under a job's folder (its links not followed), however deep, its locked
    folders opened first (`unlock_tree`)."""
    unlock_tree(home)
    size = files = 0
    stack = [str(home)]
    while stack:
        try:
            with os.scandir(stack.pop()) as entries:
                for entry in entries:
                    files += 1
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
                    elif entry.is_file(follow_symlinks=False):
                        size += entry.stat(follow_symlinks=False).st_blocks * 512
        except OSError:
            continue
    return size, files


def filled_unseen(path: str, seen: bool) -> Problem:
    """The verdict on an answer that filled the scratch disk while it ran with no other job:
    `seen` by the grader's watch, or only said by its worker's exit status."""
    if not seen:
        return Problem(Kind.EXCEPTION, f"filled the grader's disk: while the process running {path} ran alone, it "
                                       f"ended with status {DISK_FULL}, the disk its folder is on full, and its "
                                       "results were not written; an answer must return its Jacobian, not fill the "
                                       "disk or end its process")
    return Problem(Kind.EXCEPTION, f"filled the grader's disk: while the process running {path} ran alone, the disk "
                                   "its folder is on became full (files held open after they were removed, or space "
                                   "reserved), and its results could not be written; an answer must return its "
                                   "Jacobian, not write files")


def filled(path: str, own: tuple[int, int]) -> Problem:
    """The verdict on an answer whose own files filled the scratch disk."""
    return Problem(Kind.EXCEPTION, f"filled the grader's disk: the process running {path} left {own[0] // 2**20} MB "
                                   f"in {own[1]} files in its folder, and its results could not be written; an answer "
                                   "must return its Jacobian, not write files")
