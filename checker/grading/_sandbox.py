"""Running a submission's answers out of process, for class grading: the grader's side of `_zygote`.

A `Pool` starts one zygote process (`_zygote`), which imports JAX and the kit and loads the
class's draws once. For each attempt at a submission, the zygote forks a reaper and the reaper a
worker: student code runs only there, never in the grader and never in a process where another
submission's code ran. The worker gets a private copy of the submission's answer files as its
working directory (and namespaces of its own, as root or, as a plain user, where user
namespaces are allowed; as root, control groups and an unprivileged uid of its own:
docs/grading.md, "The threat model, as built"), a wall-clock
budget kept by this side's clock, and a memory limit. Results come back as `.npz` and JSON
files in the worker's folder, read here as hostile data: never through a link, FIFO or device,
capped in size, numbers only, every status decided here. A worker that dies, hangs or runs out
of memory costs the puzzle it was on, and a fresh worker runs the rest. `Pool.run` returns the
same `Run`s as the in-process runner, so the judge never knows.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import functools
import hashlib
import io
import json
import os
import queue
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

import numpy as np

from checker.engine import _catalog
from checker.engine._catalog import Choices, Puzzle
from checker.engine._errors import JacpuzzlesError
from checker.engine._runner import Problem, Run
from checker.engine._sampling import Draw
from checker.engine._verdict import Kind
from checker.grading import _cgroups, _disk, _landlock, _linux, _results, _scratch
from checker.grading._cgroups import oom_recorded
from checker.grading._messages import Config, Job
from checker.grading._worker import BATCH, CURRENT, DISK_FULL

STARTUP_BUDGET = 120.0  # seconds for the zygote to import JAX, or a worker to start (a busy machine)
JOB_FOLDER_SIZE = "1g"  # as root with namespaces, each job's folder is a tmpfs this size (docs/grading.md)
POLL = 0.05  # seconds between looks at a running worker
STDERR_TAIL = 4000  # bytes of a dead worker's stderr read back, for the reason it died
UID_BASE = 620000  # as root, job k of a run runs as uid UID_BASE + block * UID_BLOCK + k (no such users)
UID_BLOCK = 1_000_000  # uids a grader run holds: its block is locked (UID_LOCKS) while it runs
UID_BLOCKS = 4000
UID_LOCKS = Path("/run/jacpuzzles")
PROCESSES = 256  # processes and threads a job may have at once (as root, per uid), plus 8 per core
THREADS = PROCESSES + 8 * (os.cpu_count() or 1)  # the same, as the limit a job is held to
# Where the machine or the grader's control group (a container's process limit) has fewer tasks
# left than `jobs` jobs at THREADS each, each job gets a share of what is left, TASK_RESERVE kept
# back for the grader, its zygote and their threads, and two tasks per job for its reaper and
# worker; a share below FEWEST_THREADS (JAX's own threads, with room for an answer's) refuses to
# start, rather than let jobs that stay within their limit together take every task: the zygote
# could then fork no job, and classmates were ungradable (red team RT27, 8 jobs in a container
# whose limit was 2048).
TASK_RESERVE = 64 + 4 * (os.cpu_count() or 1)
FEWEST_THREADS = 32 + 8 * (os.cpu_count() or 1)
KIT = Path(__file__).resolve().parents[2]  # the folder holding the `checker` package
T = TypeVar("T")
# The zygote's Python starts isolated (`-I`: no user site-packages, nothing from PYTHONPATH,
# PYTHONSTARTUP or any PYTHON* variable, not the working directory on sys.path), with the
# kit's own folder first: a `numpy.py` or `checker/` in a submission, or a `.pth` planted in
# some user's site-packages, must not stand in for the real ones.
# The zygote's first step, while it has a single thread (numpy's import starts more): as a plain
# user, a user namespace of its own (`_linux.zygote_user_namespace`; why not, its last argument).
_BOOT = ("import sys, runpy; sys.path.insert(0, sys.argv.pop(1)); from checker.grading import _linux; "
         "sys.argv.append(_linux.zygote_user_namespace()); runpy.run_module('checker.grading._zygote', "
         "run_name='__main__')")
# What a process that ran out of memory under RLIMIT_AS tends to print before dying.
_MEMORY_HINTS = ("MemoryError", "bad_alloc", "Cannot allocate memory", "out of memory", "RESOURCE_EXHAUSTED")


@dataclass(frozen=True)
class Limits:
    """What one submission's code may use: seconds per import or call, megabytes on top of JAX."""

    timeout: float
    memory_mb: int
    threads: int = THREADS  # processes and threads at once (`thread_limit`)

    def puzzle_budget(self) -> float:
        """Wall-clock seconds one puzzle may take in all (import, compiled run, eager rerun)."""
        return self.timeout * 2 + 5


def thread_limit(jobs: int) -> int:
    """The threads each of `jobs` jobs running at once may hold: THREADS, or its share of the
    tasks left (`_cgroups.tasks_left`; a plain user's `ulimit -u`, `_linux.uid_tasks_left`).
    Raises `TooFewTasks` where that share is too small."""
    rooms = [room for room in (_cgroups.tasks_left(), _linux.uid_tasks_left()) if room is not None]
    if not rooms:
        return THREADS
    left = min(rooms)
    share = (left - TASK_RESERVE) // max(jobs, 1) - 2
    if share < FEWEST_THREADS:
        fits = max(0, (left - TASK_RESERVE) // (FEWEST_THREADS + 2))
        raise TooFewTasks(f"only {left} more processes and threads may start here (the kernel's limit, this "
                          "control group's pids.max as in a container, or this user's ulimit -u), too few for "
                          f"{jobs} jobs at once of at least {FEWEST_THREADS} threads each: "
                          + (f"pass --jobs {fits} or fewer, or " if fits else "")
                          + "raise the limit (podman and docker: --pids-limit; a user's: ulimit -u)")
    return min(THREADS, share)


class TooFewTasks(JacpuzzlesError):
    """The machine or the grader's control group leaves too few tasks for the jobs asked for."""


@dataclass(frozen=True)
class _Ended:
    """How a worker ended: its exit status, and whether this side killed it for time."""

    returncode: int
    timed_out: bool
    ready: bool
    stderr: str
    current: str  # what it was on: "trace N" or "run N" for puzzle N, "batch", or "" before any
    oom: bool = False  # its tree hit the memory limit of its control group
    oom_on: str = ""  # the stage it was on when that limit first killed one of its processes
    armed_for: float = 0.0  # seconds from the worker's arming to its end, on the grader's clock
    threads: int = 0  # how many threads it held when its reaper killed it for too many (0: not so)


class WorkerFailure(JacpuzzlesError):
    """The grader's own worker could not run (no student code had run yet): the submission is
    ungradable, never scored 0; grading it again may succeed. Exit code 1."""


class CopyChanged(WorkerFailure):
    """The grader's copy of a submission's answers no longer holds the bytes read from the
    submission (something else wrote there): it is not run from that copy."""


class Pool:
    """The zygote and the jobs it runs; `with Pool(...) as pool: pool.run(...)` from any thread."""

    puzzles: Mapping[str, Puzzle] = MappingProxyType({})  # slot -> its variant (a slot not here: a puzzle's name)

    def __init__(self, scratch: Path, draws: dict[str, tuple[Draw, ...]], limits: Limits, hidden: Sequence[Path] = (),
                 variants: dict[str, tuple[str, Choices]] | None = None) -> None:
        """`draws` per slot: a puzzle's name (its canonical variant), or a key of `variants`,
        which names the puzzle and the choices of the variant that slot runs answers against.
        `hidden`: folders a worker must not see beside the scratch folder (SUBMISSIONS, OUT).

        The grader becomes non-dumpable first: no process of its uid (a worker, as a plain
        user) may read its memory, environment or descriptors through /proc or ptrace."""
        from checker.engine import _variants

        self.limits = limits
        self.puzzles: dict[str, Puzzle] = {slot: _variants.variant(name, chosen)
                                           for slot, (name, chosen) in (variants or {}).items()}
        self.scratch = scratch
        self.counts = {name: len(ds) for name, ds in draws.items()}
        self.labels = {name: [d.label for d in ds] for name, ds in draws.items()}
        self.last_words = ""  # the last line a dead worker wrote on stderr (for the start-up proof)
        self._uids: tuple[int, int] | None = None  # this run's first worker uid, and the lock holding its block
        self._lock = threading.Lock()
        self._jobs = 0
        self._events: dict[str, queue.Queue[dict[str, Any]]] = {}
        self._stopped = threading.Event()
        self._space = _disk.Watch(scratch, self._stopped)
        self._gate = _Gate()
        self.undumpable = _linux.prctl(_linux.PR_SET_DUMPABLE, 0) == 0
        # Workers running as other uids (as root) pass through to their own folders only; a
        # worker of the grader's own uid has no need to.
        os.chmod(scratch, 0o711 if os.geteuid() == 0 else 0o700)
        home = scratch / "zygote-home"
        _clear_start(scratch)  # what an earlier try at starting left (`_disk.retried`)
        try:
            config = _share_draws(scratch, draws, limits, hidden, variants or {})
            home.mkdir(mode=0o700)
            self._stderr = os.fdopen(os.open(scratch / "zygote.stderr", os.O_WRONLY | os.O_CREAT | os.O_EXCL
                                             | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600), "wb")
        except OSError as exc:
            if _scratch.disk_full(exc):
                self._stopped.set()  # the free-space watch
                raise  # the caller tries again, then stops the run (exit 2)
            raise WorkerFailure(f"the grader could not write its scratch folder {scratch} ({exc.strerror}): free "
                                "space there, or point TMPDIR at another file system, and run the same command "
                                "again") from None
        self._proc = subprocess.Popen(
            [sys.executable, "-I", "-c", _BOOT, str(KIT), str(config)],
            cwd=scratch, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
            start_new_session=True, env=_environment(home),
        )
        self._ready: queue.Queue[dict[str, Any]] = queue.Queue()
        threading.Thread(target=self._listen, daemon=True).start()
        try:
            ready = self._ready.get(timeout=STARTUP_BUDGET)
        except queue.Empty:
            self.close()
            raise WorkerFailure(f"the grading processes did not start within {STARTUP_BUDGET:g} s: "
                                f"{_tail(scratch / 'zygote.stderr').strip()[-500:]}") from None
        if ready.get("event") == "gone":  # its output ended: it has ended, or is about to
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._proc.wait(timeout=10)
        if self._proc.poll() is not None or ready.get("event") == "gone":
            said = _tail(scratch / "zygote.stderr").strip()[-500:]
            self.close()
            if _disk.below_floor(scratch):  # a Python that cannot write its files ends silently, status 120
                raise OSError(errno.ENOSPC, f"the grading processes failed to start (exit status "
                                            f"{self._proc.returncode}) on a full disk")
            raise WorkerFailure(f"the grading processes failed to start (exit status {self._proc.returncode})"
                                + (f": {said}" if said else ", saying nothing on stderr"))
        for shared in _SHARED:  # read by the zygote before it said ready: gone before any answer runs
            (scratch / shared).unlink(missing_ok=True)
        # What isolation the machine allows: "" where it does, else why not (docs/grading.md).
        self.enclosed = ready.get("namespaces") == ""
        self.user_namespace = ready.get("user_namespace") == ""  # a plain user's zygote in one of its own
        self.unprivileged = ready.get("user") == ""
        self.missing = {k: str(v) for k, v in ready.items() if v and k in (
            "namespaces", "user", "groups", "seccomp", "landlock", "capabilities", "counted")}
        self.filtered = ready.get("seccomp") == ""
        self.capless = ready.get("capabilities") == ""
        self.landlock = int(ready.get("landlock_abi", 0)) if ready.get("landlock") == "" else 0
        self.confined = self.enclosed or self.landlock > 0
        self.grouped = ready.get("groups") == ""
        self.counted = ready.get("counted") == ""  # a plain user's workers: threads held to `limits.threads`
        # Where the zygote makes each job's memory group (`{job}`: its id), and which kind of
        # groups they are: watched for the limit's kills (`_watch`).
        self._memory = str(ready.get("memory_groups", "")) if self.grouped else ""
        self._cgroup = str(ready.get("cgroup", ""))
        self._uids = _uid_block() if self.unprivileged else None
        if self.unprivileged and self._uids is None:
            self.unprivileged = False
            self.missing["user"] = (f"no free block of worker uids ({UID_LOCKS} cannot be written, or {UID_BLOCKS} "
                                    "graders are running)")

    def isolation(self) -> str:
        """One line: every mechanism that keeps a worker from the grader's files, other workers
        and the network, and what is missing (docs/grading.md, "The threat model, as built")."""
        held = []
        if self.enclosed:
            user = "a user namespace mapping only the grader's uid, then " if self.user_namespace else ""
            held.append(f"namespaces ({user}mount, pid, network, IPC, UTS), a file system of its own (an allow-list), "
                        "private /tmp")
        if self.landlock:
            held.append(_landlock.describe(self.landlock))
        if self.filtered:
            held.append("seccomp (no sockets, namespaces, ptrace, pidfds, limits or scheduling of other processes, "
                        "io_uring, bpf, keys, mounts, fanotify/inotify/dnotify, file locks and leases, "
                        "modes/owners/times, reboot/acct, System V IPC, calls newer than Linux 6.10)")
        if self.capless:
            held.append("no capabilities (CapEff 0, bounding set empty, secure bits locked)")
        if self.unprivileged:
            held.append("a uid of its own")
        if self.grouped:
            held.append(f"a memory limit over its whole tree and a process limit ({self._cgroup})")
        else:
            held.append("a memory limit per process")
            if self.filtered and not self.unprivileged:
                held.append(f"no process but its own, and at most {self.limits.threads} threads (RLIMIT_NPROC in a "
                            "user namespace of its own)" if self.counted else
                            "no process but its own and its threads (seccomp: no process limit here)")
        held.append("the grader and its zygote non-dumpable" if self.undumpable else "the grader dumpable")
        missing = [f"{what} ({self.missing[key]})" for key, what in
                   (("namespaces", "no namespaces"), ("landlock", "no Landlock"), ("seccomp", "no seccomp filter"),
                    ("capabilities", "capabilities kept"), ("user", "no uid of their own"),
                    ("groups", "no control groups"), ("counted", "threads bounded by the memory limit only"))
                   if key in self.missing]
        line = "isolation: " + ", ".join(held) + " for each submission"
        if not self.confined:
            line += "; UNCONFINED: workers see the host's files, processes and network"
        return line + ("; missing: " + "; ".join(missing) if missing else "")

    def unconfined(self) -> str:
        """Why a worker could not be confined (no namespaces and no Landlock), or "" when it is."""
        if self.confined:
            return ""
        return (f"no namespaces ({self.missing.get('namespaces', '')}) and no Landlock "
                f"({self.missing.get('landlock', '')}): every submission could read and write whatever your user can "
                "(the kit's solutions/, your home folder, the other submissions and their grades), reach the network "
                "and signal your processes")

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def stop(self) -> None:
        """Kill every running worker at its next look (Ctrl-C in the grader)."""
        self._stopped.set()

    def close(self) -> None:
        """End the zygote; it kills whatever is still running."""
        self._stopped.set()
        if self._uids is not None:
            os.close(self._uids[1])  # the block of uids is free again
            self._uids = None
        try:
            if self._proc.stdin is not None:
                self._proc.stdin.close()
            self._proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            pass
        try:
            os.killpg(self._proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self._proc.wait()
        self._stderr.close()

    def _listen(self) -> None:
        """Route the zygote's and reapers' messages to the jobs waiting for them."""
        assert self._proc.stdout is not None
        for line in self._proc.stdout:
            message = json.loads(line)
            if message.get("event") == "ready":
                self._ready.put(message)
                continue
            with self._lock:
                box = self._events.get(str(message.get("id")))
            if box is not None:
                box.put(message)
        self._ready.put({"event": "gone"})
        with self._lock:
            boxes = list(self._events.values())
        for box in boxes:
            box.put({"event": "gone"})

    def run(self, root: Path, items: Sequence[tuple[str, str]], budgets: int | None = None,
            sums: Mapping[str, str] | None = None) -> list[Run]:
        """Run each `(slot, path relative to root)` of one submission; one `Run` per item. A
        slot is a puzzle's name, or a variant's key given to the pool (`variants`).

        `budgets`: puzzle budgets for the whole run, over all its attempts (default: two per
        item and one more). `sums`: each path's sha256 when it was read from the submission;
        the job's own copy, made in a folder created for it just before its worker starts, must
        hold those bytes, else `CopyChanged` (nothing ran). Raises `WorkerFailure` when the
        grader's own processes fail (before any answer ran).
        """
        with self._lock:
            self._jobs += 1
            number = self._jobs
        uid = self._uids[0] + number if self._uids is not None else None
        self._gate.enter()
        home: Path | None = None
        capped = False
        try:
            home = Path(self._with_room(lambda: tempfile.mkdtemp(prefix=f"job{number}-", dir=self.scratch)))
            home.chmod(0o711 if uid is not None else 0o700)  # a worker of another uid passes through to its own folders
            capped = self.enclosed and _capped_folder(home)
            code = self._with_room(functools.partial(_fresh_copy, root, [path for _, path in items], home / "code",
                                                     uid, sums))
            return self._attempts(number, code, items, home, uid, budgets)
        finally:
            self._gate.leave()
            if capped and home is not None:
                _release_folder(home)
            if home is not None:
                _scratch.remove_tree(home)

    def _with_room(self, make: Callable[[], T]) -> T:
        """`make()` (a job's folder, its copy of the answers); if the disk is full, once more
        when no other job runs and the disk has room (red team RT18: a classmate's `fallocate`
        made the grader's own `mkdir` fail, and the submission `ungradable`)."""
        try:
            return make()
        except OSError as exc:
            if not _scratch.disk_full(exc):
                raise
        self._gate.alone()
        if self._space.room_within(_disk.WAIT):
            try:
                return make()
            except OSError as exc:
                if not _scratch.disk_full(exc):
                    raise
        raise WorkerFailure(self._full("this submission's folders could not be made, with no other submission of "
                                       "this run running; it is graded again by the next run"))

    def _full(self, what: str) -> str:
        """Why a job is ungradable on a full scratch disk (below the floor), and what to do."""
        return _disk.advice(self.scratch, f"below {_disk.FLOOR_MB} MB or {_disk.FLOOR_FILES} files free: {what}")

    @contextlib.contextmanager
    def alone(self) -> Iterator[None]:
        """Hold every job back while the block runs: once the jobs running have ended, none
        runs until it is over (the results folder written when a classmate's files had filled
        the disk it shares with the scratch folder, red team RT18)."""
        self._gate.alone()
        try:
            yield
        finally:
            self._gate.leave()

    def _attempts(self, number: int, code: Path, items: Sequence[tuple[str, str]], home: Path, uid: int | None,
                  budgets: int | None = None) -> list[Run]:
        runs: dict[int, Run] = {}
        batch = True
        attempt = 0
        # The whole submission's time, over every attempt: a budget per stage it can be on (each
        # puzzle traced, each run, the batch), each granted once whatever attempt reaches it.
        granted: set[str] = set()
        allowance = (2 * len(items) + 1 if budgets is None else budgets) * self.limits.puzzle_budget()
        retried: set[int] = set()  # puzzles (-1: the worker's start) run again after a kill from outside
        alone = False  # whether it runs with no other job running (after meeting a full disk)
        while len(runs) < len(items):
            remaining = [i for i in range(len(items)) if i not in runs]
            jobdir = home / f"attempt-{attempt}"
            self._with_room(lambda: jobdir.mkdir(mode=0o700))  # noqa: B023 (called at once)
            if uid is not None:
                os.chown(jobdir, uid, uid)
            job = Job(id=f"{number}.{attempt}", jobdir=str(jobdir), root=str(code), home=str(home), uid=uid,
                      enclose=self.enclosed,
                      batch=batch, puzzles=tuple(items[i] for i in remaining), indices=tuple(remaining))
            stages = {f"{what} {i}" for i in remaining for what in ("trace", "run")} | {BATCH}
            began = time.monotonic()
            ended = self._drive(job, jobdir, stages, granted, allowance)
            allowance -= ended.armed_for
            if self._stopped.is_set():
                raise WorkerFailure("grading was interrupted")
            for i in remaining:
                slot = items[i][0]
                found = _results.read_result(jobdir, i, self.puzzles.get(slot, slot), self.counts[slot],
                                             self.labels[slot])
                if found is not None:
                    runs[i] = _over_memory(found, self.limits) if ended.oom_on.partition(" ")[2] == str(i) else found
            unfinished = [i for i in remaining if i not in runs]
            if not unfinished:
                break
            # A full disk met: seen by the grader's watch, or the worker's own DISK_FULL status.
            # The watch looks every _disk.LOOK seconds, and a classmate's fallocate can fill the
            # last megabytes for a few milliseconds, whenever another job makes a file, and give
            # them back (red team RT20, X16): then only the worker that met it can tell. What it
            # says decides only that it runs again alone; alone, a full disk is its own doing.
            seen = self._space.full_since(began)
            full = seen or ended.returncode == DISK_FULL
            if full and ended.ready:
                own = _disk.own_use(home)
                if own[0] >= _disk.OWN_MB * 1024 * 1024 or own[1] >= _disk.OWN_FILES:  # it filled the disk itself
                    for i in unfinished:  # its files stay in its folder for the puzzles after this one too
                        runs[i] = Run(problem=_disk.filled(items[i][1], own))
                    break
                if alone:  # nothing else ran, and the disk had room when it started: its doing,
                    # unless the disk stays full with its processes gone (what they held is freed
                    # with them) and its folder's files counted as free: then something outside
                    # the grader filled it
                    if (other := _disk.sharing(self.scratch)) is not None:
                        raise WorkerFailure(f"its worker met a full disk while it ran alone, but another grading run "
                                            f"({other}) uses the file system of the scratch folder {self.scratch} "
                                            "too, and may have filled it: give each grading run a TMPDIR on a file "
                                            "system of its own, and run the same command again")
                    if not self._space.room_within(_disk.WAIT, own):
                        raise WorkerFailure(self._full("it became full while this submission ran alone, and "
                                                       "stayed full after its processes ended: something outside "
                                                       "the grader fills it"))
                    for i in unfinished:
                        runs[i] = Run(problem=_disk.filled_unseen(items[i][1], seen))
                    break
            if full and not alone:
                # Its results could not be written (or, before any answer ran, its worker could
                # not start), and the disk was full. A classmate may have filled it (red team,
                # round 11: right answers were given 0) with files no folder shows (RT18:
                # unlinked and held open, or space reserved by fallocate), so the grader cannot
                # tell whose doing it was by looking: once more, with no other job running, on a
                # disk with room. Filled again then, it is this answer's doing.
                self._gate.alone()
                alone = True
                if not self._space.room_within(_disk.WAIT):
                    raise WorkerFailure(self._full("this submission's results could not be written, and the disk "
                                                   "stayed full with no other submission of this run running"))
                attempt += 1
                continue
            if not ended.ready and not self._again(ended, -1, retried):
                raise WorkerFailure(f"the grading worker failed before running any answer ({_how(ended)}): "
                                    f"{ended.stderr.strip()[-500:]}")
            attempt += 1
            if not ended.ready:
                continue
            on = ended.current.partition(" ")[2]
            claimed = int(on) if on.isdigit() and int(on) in unfinished else None
            if batch and claimed is None:
                batch = False  # died compiling or running the traced answers together: one by one now
                continue
            # One by one, the worker takes the unfinished puzzles in order, so a claim that names
            # none of them (the file is the worker's to rewrite) blames the first: every attempt
            # settles a puzzle, and a submission can never keep the grader retrying.
            culprit = unfinished[0] if claimed is None else claimed
            if allowance > 0 and self._again(ended, culprit, retried):
                continue
            runs[culprit] = Run(problem=_died(items[culprit][1], ended, self.limits))
            self.last_words = _last_line(ended.stderr)
            if allowance <= 0:  # the submission's time is spent: what is left ran out of it too
                for i in [i for i in unfinished if i not in runs]:
                    runs[i] = Run(problem=_died(items[i][1], ended, self.limits))
        return [runs[i] for i in range(len(items))]

    def _again(self, ended: _Ended, stage: int, retried: set[int]) -> bool:
        """Whether to run a stage of a submission (a puzzle's index, -1 the worker's start) once
        more, in a fresh worker: the first time its worker was SIGKILLed by none of the
        grader's own limits (no time limit, no memory group's). In a container, the kernel's
        memory killer takes whichever worker is largest when the container runs short, and a
        classmate's processes can make it run short (red team, round 7); an answer that kills
        itself is only graded twice."""
        if (ended.returncode != -signal.SIGKILL or ended.timed_out or ended.oom or ended.threads
                or self._stopped.is_set()):
            return False
        if stage in retried:
            return False
        retried.add(stage)
        return True

    def _drive(self, job: Job, jobdir: Path, stages: set[str], granted: set[str] | None = None,
               allowance: float = float("inf")) -> _Ended:
        """Start a job, watch it against the budgets, and wait until its reaper is gone."""
        box: queue.Queue[dict[str, Any]] = queue.Queue()
        with self._lock:
            self._events[job.id] = box
        try:
            assert self._proc.stdin is not None
            try:
                self._proc.stdin.write((job.to_json() + "\n").encode())
                self._proc.stdin.flush()
            except OSError as exc:
                raise WorkerFailure(f"the grading processes are gone ({exc})") from None
            group = Path(self._memory.replace("{job}", job.id)) if self._memory else None
            return self._watch(box, jobdir, stages, group, granted, allowance)
        finally:
            with self._lock:
                del self._events[job.id]

    def _watch(self, box: queue.Queue[dict[str, Any]], jobdir: Path, stages: set[str], group: Path | None = None,
               granted: set[str] | None = None, allowance: float = float("inf")) -> _Ended:
        """Wait for a job's end, killing it when over budget; every clock here is the grader's.

        The worker's `current` file only says which stage it reached: each stage of the
        submission (tracing or running one of its puzzles, the batch) starts a fresh puzzle
        budget once, the first time any attempt is seen on it (`granted`, shared by the
        submission's attempts), so rewriting the file buys no time; and the job is killed once
        the submission's `allowance` (seconds, over all its attempts) is spent. The job's memory
        group (`group`) is looked at too: the stage on which its limit first killed a process is kept.
        """
        granted = set() if granted is None else granted
        armed_at: float | None = None
        reaper: int | None = None
        oom = False
        oom_on = ""
        worker: int | None = None
        status: int | None = None
        threads = 0
        timed_out = False
        ready = False
        seen: set[str] = set()
        last = ""
        since = time.monotonic()
        while True:
            try:
                message = box.get(timeout=POLL)
            except queue.Empty:
                message = {}
            event = message.get("event")
            if event == "forked":
                reaper = int(message["reaper"])
            elif event == "started":
                worker = int(message["worker"]) if message.get("worker") is not None else None
            elif event == "armed":
                ready, since = True, time.monotonic()
                armed_at = since
            elif event == "ended":
                status = int(message["status"])
                threads = int(message.get("threads") or 0)
            elif event == "reaped":
                status = status if status is not None else int(message["status"])
                oom = bool(message.get("oom"))
                break
            elif event == "unforked":
                raise WorkerFailure(f"the grader could not start a process for it ({message.get('why')}): the "
                                    "machine or the grader's container had no process left to give")
            elif event == "gone":
                raise WorkerFailure("the grading processes ended unexpectedly: "
                                    f"{_tail(self.scratch / 'zygote.stderr').strip()[-500:]}")
            now = time.monotonic()
            stage = _current(jobdir) if ready else ""
            if stage in stages and stage not in seen:
                seen.add(stage)
                last = stage
                if stage not in granted:
                    granted.add(stage)
                    since = now
            if ready and group is not None and not oom_on and oom_recorded(group):
                oom_on = stage if stage in stages else last or BATCH
            budget = self.limits.puzzle_budget() if ready else STARTUP_BUDGET
            spent = armed_at is not None and now - armed_at > allowance
            if reaper is not None and status is None and (now - since > budget or spent or self._stopped.is_set()):
                timed_out = timed_out or not self._stopped.is_set()
                _kill_job(reaper, worker)
        final = _current(jobdir)
        current = final if final in stages else last
        armed_for = time.monotonic() - armed_at if armed_at is not None else 0.0
        return _Ended(status if status is not None else -9, timed_out, ready, _tail(jobdir / "stderr"), current, oom,
                      oom_on or (current if oom else ""), armed_for, threads)


_SHARED = ("draws.npz", "labels.json", "config.json")  # what `_share_draws` writes


def _clear_start(scratch: Path) -> None:
    """Remove what a failed start of the zygote left in `scratch`: the shared files, its stderr
    and its home (no worker has run yet: every file there is the grader's)."""
    for name in (*_SHARED, "zygote.stderr"):
        (scratch / name).unlink(missing_ok=True)
    if (scratch / "zygote-home").exists():
        _scratch.remove_tree(scratch / "zygote-home")


def _share_draws(folder: Path, draws: dict[str, tuple[Draw, ...]], limits: Limits, hidden: Sequence[Path],
                 variants: dict[str, tuple[str, Choices]] | None = None) -> Path:
    """Write `draws` (slot -> draws), the variants' choices (slot -> puzzle and choices) and the
    limits for the zygote; returns the config's path."""
    arrays = {f"{name}.{i}": np.stack([d.values[i] for d in ds]) for name, ds in draws.items()
              if ds for i in range(len(ds[0].values))}
    packed = io.BytesIO()
    np.savez(packed, allow_pickle=False, **arrays)
    _scratch.write(folder / "draws.npz", packed.getvalue())  # 0600: the draws are the grader's secret
    _scratch.write(folder / "labels.json",
                   json.dumps({name: [d.label for d in ds] for name, ds in draws.items()}).encode())
    config = Config(
        draws=str(folder / "draws.npz"),
        labels=str(folder / "labels.json"),
        arity={name: len(ds[0].values) if ds else 0 for name, ds in draws.items()},
        timeout=limits.timeout,
        memory_mb=limits.memory_mb,
        kit=str(KIT),
        hidden=tuple(sorted({str(folder.resolve()), *(str(Path(h).resolve()) for h in hidden)})),
        answers=tuple([str(p) for p in _reference_folders()] + [str(folder) for folder, _ in _catalog.packs()]),
        packs=tuple((str(folder), text) for folder, text in _catalog.packs()),
        processes=limits.threads,
        variants=dict(variants or {}),  # rendered by the zygote, before any answer runs
    )
    path = folder / "config.json"
    _scratch.write(path, config.to_json().encode())
    return path


def _capped_folder(home: Path) -> bool:
    """Make a job's folder a tmpfs of `JOB_FOLDER_SIZE` (as root, in the grader's own view, so it
    reads the results there): what a worker writes cannot fill the grader's disk. Its pages are
    charged to the job's memory group as it writes them. False where it cannot be mounted."""
    try:
        _linux.mount("tmpfs", str(home), "tmpfs", _linux.MS_NOSUID | _linux.MS_NODEV,
                     f"size={JOB_FOLDER_SIZE},mode=711")
    except OSError:
        return False
    return True


def _release_folder(home: Path) -> None:
    """Unmount a job's tmpfs (detached: a process still holding a file there cannot keep it)."""
    _linux.libc().umount2(str(home).encode(), _linux.MNT_DETACH)


def _fresh_copy(root: Path, paths: list[str], code: Path, uid: int | None,
                sums: Mapping[str, str] | None = None) -> Path:
    """`_private_copy` into `code`, what an earlier try left there removed first."""
    if code.exists():
        _scratch.remove_tree(code)
    return _private_copy(root, paths, code, uid, sums)


def _private_copy(root: Path, paths: list[str], code: Path, uid: int | None,
                  sums: Mapping[str, str] | None = None) -> Path:
    """The submission's answer files, copied where only its worker may read them (0700 folders,
    0600 files), each checked against its sha256 in `sums` when given (`CopyChanged`)."""
    from checker.grading import _scratch, _submissions

    code.mkdir(mode=0o700)
    for rel in dict.fromkeys(paths):
        data = _results.read_untrusted(root / rel, _submissions.FILE_CAP)
        if sums is not None and (data is None or hashlib.sha256(data).hexdigest() != sums.get(rel)):
            raise CopyChanged(f"the grader's copy of {rel} changed after it was read from the submission (another "
                              "submission's code wrote into it?)")
        if data is None:
            raise WorkerFailure(f"the grader's copy of {rel} cannot be read")
        target = code / rel
        _scratch.folders(target.parent, code)
        _scratch.write(target, data)
    if uid is not None:
        for folder, _, files in os.walk(code):
            os.chown(folder, uid, uid)
            for name in files:
                os.chown(os.path.join(folder, name), uid, uid)
    return code


# The grader's environment variables the zygote (and so every worker) gets: what Python, JAX,
# XLA and the numeric libraries read. Nothing else: a worker's answers can print their environment
# (and /proc/self/environ shows the one the zygote was started with) into the student's feedback.
ENVIRONMENT = ("PATH", "LANG", "LANGUAGE", "TZ", "LD_LIBRARY_PATH", "JACPUZZLES_NO_NAMESPACES",
               "JACPUZZLES_NO_USER_NAMESPACES", "JACPUZZLES_NO_LANDLOCK")
ENVIRONMENT_PREFIXES = ("LC_", "JAX_", "XLA_", "OPENBLAS_", "OMP_", "MKL_")


def _environment(home: Path) -> dict[str, str]:
    """The zygote's environment: an allow-list of the grader's, HOME a fresh 0700 folder of its
    own (each worker gets one of its own too), and no persistent compilation cache to share."""
    env = {k: v for k, v in os.environ.items() if k in ENVIRONMENT or k.startswith(ENVIRONMENT_PREFIXES)}
    env["HOME"] = str(home)
    env["JACPUZZLES_CACHE"] = "off"  # a submission must not write cache entries another one reads
    env.pop("JAX_COMPILATION_CACHE_DIR", None)
    return env


def _current(jobdir: Path) -> str:
    """What the worker says it is on (a claim, used only to pick a stage of its own job)."""
    data = _results.read_untrusted(jobdir / CURRENT, 64)
    return data.decode("ascii", "replace") if data is not None else ""


def _kill_job(reaper: int, worker: int | None) -> None:
    """SIGKILL a job. In a pid namespace (the worker's pid is not known here): its reaper, the
    namespace's first process, which ends every other. Otherwise the worker's process group;
    its reaper then kills the rest of its tree."""
    for kill, pid in [(os.killpg, worker), (os.kill, worker)] if worker is not None else [(os.kill, reaper)]:
        try:
            kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def _tail(path: Path) -> str:
    """The last bytes of a worker's stderr, as text whatever their encoding (never a link's)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError:
        return ""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return ""
        os.lseek(fd, max(0, os.lseek(fd, 0, os.SEEK_END) - STDERR_TAIL), os.SEEK_SET)
        return os.read(fd, STDERR_TAIL).decode("utf-8", "replace")
    except OSError:
        return ""
    finally:
        os.close(fd)


def _uid_block() -> tuple[int, int] | None:
    """A block of worker uids no other grader holds, and the descriptor holding its lock: the
    lock goes when this process does, whatever ends it. A block some process still runs in
    (a worker of a grader killed mid-job) is passed over."""
    try:
        UID_LOCKS.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return None
    busy = _running_uids()
    for block in range(UID_BLOCKS):
        try:
            fd = os.open(UID_LOCKS / f"uids-{block}.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        except OSError:
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        base = UID_BASE + block * UID_BLOCK
        if any(base <= uid < base + UID_BLOCK for uid in busy):
            os.close(fd)
            continue
        return base, fd
    return None


def _running_uids() -> set[int]:
    """The real uids of every process on the machine."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                found.add(os.stat(f"/proc/{entry}").st_uid)
            except OSError:
                pass
    return found


def _reference_folders() -> list[Path]:
    """The kit's reference answers, wherever this installation keeps them, and its recording of
    TensorFlow's Jacobians on the default seed's draws (the expected answers, for that seed)."""
    from checker.engine import _solutions, _tf_oracle

    found = [p for p in (_solutions.PACKAGED, _solutions.SOURCE) if p.is_dir()]
    found += [p for p in (_tf_oracle.RECORDING, _tf_oracle.RECORDING_INFO) if p.is_file()]
    return [p.resolve() for p in found]


def _last_line(text: str) -> str:
    """The last non-empty line of a worker's stderr, capped (an exception's one-line summary)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:300] if lines else ""


def _how(ended: _Ended) -> str:
    """How a worker ended, in words."""
    if ended.returncode < 0:
        try:
            name = signal.Signals(-ended.returncode).name
        except ValueError:
            name = f"signal {-ended.returncode}"
        return f"was killed by {name}"
    if ended.returncode == DISK_FULL:
        return f"exited with status {DISK_FULL} (it could not write its results: its disk was full)"
    return f"exited with status {ended.returncode}"


def _over_memory(run: Run, limits: Limits) -> Run:
    """A puzzle's result written while the job's memory limit killed some of its processes (a
    child the answer started, say): its problem (a timeout, a crash) is named as the limit's."""
    problem = run.problem
    if problem is None or limits.memory_mb <= 0 or "memory limit" in problem.message:
        return run
    message = f"exceeded the {limits.memory_mb} MB memory limit (with the processes it started): {problem.message}"
    return Run(run.answers, Problem(Kind.EXCEPTION, message, problem.location, problem.draw, problem.status),
               run.output)


def _died(path: str, ended: _Ended, limits: Limits) -> Problem:
    """The verdict on the answer a worker was running when it died or was killed."""
    if ended.timed_out:
        budget = limits.puzzle_budget()
        return Problem(Kind.TIMEOUT, f"exceeded the {limits.timeout:g} s time limit: {path} was still running after "
                                     f"{budget:g} s (import, calls and retries together), so its process was killed")
    how = _how(ended)
    if ended.threads:
        return Problem(Kind.EXCEPTION, f"exceeded the limit of {limits.threads} threads: the process running {path} "
                                       f"held {ended.threads}, so it was killed")
    if limits.memory_mb > 0 and (ended.oom or any(hint in ended.stderr for hint in _MEMORY_HINTS)):
        return Problem(Kind.EXCEPTION, f"exceeded the {limits.memory_mb} MB memory limit: the process running {path} "
                                       f"{how}")
    return Problem(Kind.EXCEPTION, f"the process running {path} {how}: an answer must return its Jacobian, not end or "
                                   "crash its process; the other puzzles were graded in a fresh process")


class _Gate:
    """Jobs run side by side (`enter`), or one alone (`alone`): a job that met a full disk runs
    again with no other job running, and a job waiting to run alone holds back jobs not yet
    started, so that it does not wait forever."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._running = 0  # jobs running side by side
        self._waiting = 0  # jobs waiting to run alone
        self._alone: int | None = None  # the thread running alone
        self._sharing: set[int] = set()  # the threads running side by side

    def enter(self) -> None:
        with self._changed:
            self._changed.wait_for(lambda: self._alone is None and not self._waiting)
            self._running += 1
            self._sharing.add(threading.get_ident())

    def alone(self) -> None:
        """From now on, the calling thread runs alone: it waits until no other job runs. A
        thread that had `enter`ed gives up its place side by side."""
        me = threading.get_ident()
        with self._changed:
            if self._alone == me:
                return
            if me in self._sharing:
                self._sharing.discard(me)
                self._running -= 1
            self._waiting += 1
            self._changed.notify_all()
            self._changed.wait_for(lambda: self._alone is None and self._running == 0)
            self._waiting -= 1
            self._alone = me

    def leave(self) -> None:
        """The calling thread's job is over, run side by side or alone."""
        me = threading.get_ident()
        with self._changed:
            if self._alone == me:
                self._alone = None
            elif me in self._sharing:
                self._sharing.discard(me)
                self._running -= 1
            self._changed.notify_all()

