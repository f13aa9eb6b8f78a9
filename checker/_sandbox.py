"""Running a submission's answers out of process, for class grading: the grader's side of `_worker`.

A `Pool` starts one zygote process (`_worker`), which imports JAX and the kit and loads the
class's draws once. For each attempt at a submission, the zygote forks a reaper and the reaper a
worker: student code runs only there, never in the grader and never in a process where another
submission's code ran. The worker gets a private copy of the submission's answer files as its
working directory (and, when the grader runs as root, an unprivileged uid of its own and no
network), a wall-clock budget enforced from here, and a memory limit it sets on itself before
any answer runs. Results come back as `.npz` and JSON files in a folder only that worker can
write; a worker that dies, hangs or runs out of memory costs the puzzle it was on, and a fresh
worker runs the rest. `Pool.run` returns the same `Run`s as the in-process runner, so the
judge never knows.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Sequence

import numpy as np

from checker._catalog import puzzle_named
from checker._runner import Problem, Run
from checker._sampling import Draw
from checker._verdict import Kind, Status
from checker._worker import CURRENT, READY

STARTUP_BUDGET = 120.0  # seconds for the zygote to import JAX, or a worker to start (a busy machine)
POLL = 0.05  # seconds between looks at a running worker
STDERR_TAIL = 4000  # bytes of a dead worker's stderr read back, for the reason it died
UID_BASE = 620000  # as root, job k of a run runs as uid UID_BASE + k (no such user exists)
KIT = Path(__file__).resolve().parents[1]  # the folder holding the `checker` package
# The zygote starts without the working directory on sys.path, and with the kit's own folder
# first: a `numpy.py` or `checker/` in a submission must not stand in for the real ones.
_BOOT = "import sys, runpy; sys.path[0] = sys.argv.pop(1); runpy.run_module('checker._worker', run_name='__main__')"
# What a process that ran out of memory under RLIMIT_AS tends to print before dying.
_MEMORY_HINTS = ("MemoryError", "bad_alloc", "Cannot allocate memory", "out of memory", "RESOURCE_EXHAUSTED")


@dataclass(frozen=True)
class Limits:
    """What one submission's code may use: seconds per import or call, megabytes on top of JAX."""

    timeout: float
    memory_mb: int

    def puzzle_budget(self) -> float:
        """Wall-clock seconds one puzzle may take in all (import, compiled run, eager rerun)."""
        return self.timeout * 2 + 5


@dataclass(frozen=True)
class _Ended:
    """How a worker ended: its exit status, and whether this side killed it for time."""

    returncode: int
    timed_out: bool
    ready: bool
    stderr: str
    current: str  # what it was on: "trace N" or "run N" for puzzle N, "batch", or "" before any


class WorkerFailure(Exception):
    """The grader's own worker could not run (no student code had run yet): the submission is
    ungradable, never scored 0."""


class Pool:
    """The zygote and the jobs it runs; `with Pool(...) as pool: pool.run(...)` from any thread."""

    def __init__(self, scratch: Path, draws: dict[str, tuple[Draw, ...]], limits: Limits) -> None:
        self.limits = limits
        self.scratch = scratch
        self.counts = {name: len(ds) for name, ds in draws.items()}
        self._lock = threading.Lock()
        self._jobs = 0
        self._events: dict[str, queue.Queue[dict[str, Any]]] = {}
        self._stopped = threading.Event()
        os.chmod(scratch, 0o711)  # workers (other uids, as root) reach their own folders only
        config = _share_draws(scratch, draws, limits)
        self._stderr = open(scratch / "zygote.stderr", "wb")
        self._proc = subprocess.Popen(
            [sys.executable, "-c", _BOOT, str(KIT), str(config)],
            cwd=scratch, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
            start_new_session=True, env=_environment(),
        )
        self._ready: queue.Queue[dict[str, Any]] = queue.Queue()
        threading.Thread(target=self._listen, daemon=True).start()
        try:
            ready = self._ready.get(timeout=STARTUP_BUDGET)
        except queue.Empty:
            self.close()
            raise WorkerFailure(f"the grading processes did not start within {STARTUP_BUDGET:g} s: {_tail(scratch / 'zygote.stderr').strip()[-500:]}") from None
        if self._proc.poll() is not None:
            raise WorkerFailure(f"the grading processes failed to start: {_tail(scratch / 'zygote.stderr').strip()[-500:]}")
        # What isolation the machine allows: "" where it does, else why not (docs/grading.md).
        self.no_network = ready.get("network") == ""
        self.unprivileged = ready.get("user") == ""
        self.missing = {k: str(v) for k, v in ready.items() if k in ("network", "user") and v}

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

    def run(self, root: Path, items: Sequence[tuple[str, str]]) -> list[Run]:
        """Run each `(puzzle, path relative to root)` of one submission; one `Run` per item.

        Raises `WorkerFailure` when the grader's own processes fail (before any answer ran).
        """
        with self._lock:
            self._jobs += 1
            number = self._jobs
        uid = UID_BASE + number if self.unprivileged else None
        home = Path(tempfile.mkdtemp(prefix=f"job{number}-", dir=self.scratch))
        home.chmod(0o711)
        try:
            code = _private_copy(root, [path for _, path in items], home / "code", uid)
            return self._attempts(number, code, items, home, uid)
        finally:
            shutil.rmtree(home, ignore_errors=True)

    def _attempts(self, number: int, code: Path, items: Sequence[tuple[str, str]], home: Path, uid: int | None) -> list[Run]:
        runs: dict[int, Run] = {}
        batch = True
        attempt = 0
        while len(runs) < len(items):
            remaining = [i for i in range(len(items)) if i not in runs]
            jobdir = home / f"attempt-{attempt}"
            jobdir.mkdir(mode=0o700)
            if uid is not None:
                os.chown(jobdir, uid, uid)
            job = {"id": f"{number}.{attempt}", "jobdir": str(jobdir), "root": str(code), "uid": uid, "no_network": self.no_network, "batch": batch,
                   "puzzles": [list(items[i]) for i in remaining], "indices": remaining}
            ended = self._drive(job, jobdir)
            if self._stopped.is_set():
                raise WorkerFailure("grading was interrupted")
            for i in remaining:
                found = _read_result(jobdir, i, items[i][0], self.counts[items[i][0]])
                if found is not None:
                    runs[i] = found
            unfinished = [i for i in remaining if i not in runs]
            if not unfinished:
                break
            if not ended.ready:
                raise WorkerFailure(f"the grading worker failed before running any answer ({_how(ended)}): {ended.stderr.strip()[-500:]}")
            attempt += 1
            on = ended.current.partition(" ")[2]
            if not on.isdigit() or int(on) not in unfinished:
                batch = False  # died compiling or running the traced answers together: one by one now
                continue
            culprit = int(on)
            runs[culprit] = Run(problem=_died(items[culprit][1], ended, self.limits))
        return [runs[i] for i in range(len(items))]

    def _drive(self, job: dict[str, Any], jobdir: Path) -> _Ended:
        """Start a job, watch it against the budgets, and wait until its reaper is gone."""
        box: queue.Queue[dict[str, Any]] = queue.Queue()
        with self._lock:
            self._events[job["id"]] = box
        try:
            assert self._proc.stdin is not None
            try:
                self._proc.stdin.write((json.dumps(job) + "\n").encode())
                self._proc.stdin.flush()
            except OSError as exc:
                raise WorkerFailure(f"the grading processes are gone ({exc})") from None
            return self._watch(box, jobdir)
        finally:
            with self._lock:
                del self._events[job["id"]]

    def _watch(self, box: queue.Queue[dict[str, Any]], jobdir: Path) -> _Ended:
        worker: int | None = None
        status: int | None = None
        timed_out = False
        seen: tuple[str, int] | None = None
        since = time.monotonic()
        while True:
            try:
                message = box.get(timeout=POLL)
            except queue.Empty:
                message = {}
            event = message.get("event")
            if event == "started":
                worker = int(message["worker"])
            elif event == "ended":
                status = int(message["status"])
            elif event == "reaped":
                status = status if status is not None else int(message["status"])
                break
            elif event == "gone":
                raise WorkerFailure(f"the grading processes ended unexpectedly: {_tail(self.scratch / 'zygote.stderr').strip()[-500:]}")
            progress = _progress(jobdir)
            now = time.monotonic()
            if progress != seen:
                seen, since = progress, now
            budget = self.limits.puzzle_budget() if (jobdir / READY).exists() else STARTUP_BUDGET
            if worker is not None and status is None and (now - since > budget or self._stopped.is_set()):
                timed_out = timed_out or not self._stopped.is_set()
                _kill_group(worker)
        return _Ended(status if status is not None else -9, timed_out, (jobdir / READY).exists(), _tail(jobdir / "stderr"), _current(jobdir))


def _share_draws(folder: Path, draws: dict[str, tuple[Draw, ...]], limits: Limits) -> Path:
    """Write `draws` (puzzle -> draws) and the limits for the zygote; returns the config's path."""
    arrays = {f"{name}.{i}": np.stack([d.values[i] for d in ds]) for name, ds in draws.items() if ds for i in range(len(ds[0].values))}
    np.savez(folder / "draws.npz", allow_pickle=False, **arrays)
    (folder / "labels.json").write_text(json.dumps({name: [d.label for d in ds] for name, ds in draws.items()}))
    config = {
        "draws": str(folder / "draws.npz"),
        "labels": str(folder / "labels.json"),
        "arity": {name: len(ds[0].values) if ds else 0 for name, ds in draws.items()},
        "timeout": limits.timeout,
        "memory_mb": limits.memory_mb,
    }
    path = folder / "config.json"
    path.write_text(json.dumps(config))
    return path


def _private_copy(root: Path, paths: list[str], code: Path, uid: int | None) -> Path:
    """The submission's answer files, copied where only its worker may read them."""
    code.mkdir(mode=0o700)
    for rel in paths:
        target = code / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(root / rel, target)
    if uid is not None:
        for folder, _, files in os.walk(code):
            os.chown(folder, uid, uid)
            for name in files:
                os.chown(os.path.join(folder, name), uid, uid)
    return code


def _environment() -> dict[str, str]:
    """The zygote's environment: the grader's, without a persistent compilation cache to share."""
    env = dict(os.environ)
    env["JACPUZZLES_CACHE"] = "off"  # a submission must not write cache entries another one reads
    env.pop("JAX_COMPILATION_CACHE_DIR", None)
    env.pop("PYTHONPATH", None)  # the kit's folder is put on sys.path by _BOOT, nothing else
    env.pop("PYTHONSTARTUP", None)
    return env


def _progress(jobdir: Path) -> tuple[str, int]:
    """What the worker is on and how many results it wrote: a change resets the puzzle budget."""
    try:
        return _current(jobdir), sum(1 for p in jobdir.iterdir() if p.suffix == ".json")
    except OSError:
        return "", 0


def _current(jobdir: Path) -> str:
    try:
        return (jobdir / CURRENT).read_text()[:32]
    except (OSError, UnicodeDecodeError):
        return ""


def _kill_group(pid: int) -> None:
    """SIGKILL the worker's process group (its reaper then kills the rest of its tree)."""
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def _tail(path: Path) -> str:
    """The last bytes of a worker's stderr, as text whatever their encoding."""
    with open(path, "rb") as f:
        f.seek(max(0, f.seek(0, os.SEEK_END) - STDERR_TAIL))
        return f.read().decode("utf-8", "replace")


def _how(ended: _Ended) -> str:
    """How a worker ended, in words."""
    if ended.returncode < 0:
        try:
            name = signal.Signals(-ended.returncode).name
        except ValueError:
            name = f"signal {-ended.returncode}"
        return f"was killed by {name}"
    return f"exited with status {ended.returncode}"


def _died(path: str, ended: _Ended, limits: Limits) -> Problem:
    """The verdict on the answer a worker was running when it died or was killed."""
    if ended.timed_out:
        budget = limits.puzzle_budget()
        return Problem(Kind.TIMEOUT, f"exceeded the {limits.timeout:g} s time limit: {path} was still running after {budget:g} s (import, calls and retries together), so its process was killed")
    how = _how(ended)
    if limits.memory_mb > 0 and any(hint in ended.stderr for hint in _MEMORY_HINTS):
        return Problem(Kind.EXCEPTION, f"exceeded the {limits.memory_mb} MB memory limit: the process running {path} {how}")
    return Problem(Kind.EXCEPTION, f"the process running {path} {how}: an answer must return its Jacobian, not end or crash its process; the other puzzles were graded in a fresh process")


def _read_result(jobdir: Path, index: int, puzzle: str, draws: int) -> Run | None:
    """The worker's result for puzzle `index`, or None when it never finished it.

    The result is checked to have the layout the judge expects (one tuple of number blocks per
    draw): an answer can write over its own result, and must not crash the grader by doing so.
    """
    record_path = jobdir / f"{index}.json"
    if not record_path.exists():
        return None
    try:
        record = json.loads(record_path.read_text())
        run = Run(_read_blocks(jobdir / f"{index}.npz", record), _read_problem(record["problem"]), str(record["output"]))
        blocks = len(puzzle_named(puzzle).jac_shapes())
        if run.problem is None and (len(run.answers) != draws or any(len(b) != blocks for b in run.answers)):
            raise ValueError(f"{len(run.answers)} draws of blocks where {draws} draws of {blocks} were run")
        return run
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return Run(problem=Problem(Kind.EXCEPTION, f"the result of this answer could not be read back ({type(exc).__name__}: {exc}); did it write into the grader's files?"))


def _read_blocks(path: Path, record: dict[str, Any]) -> tuple[tuple[np.ndarray, ...], ...]:
    """The blocks per draw, from an `.npz` read without pickle, in the dtypes they came in."""
    dtypes: list[list[str]] = record["dtypes"]
    with np.load(path, allow_pickle=False) as data:
        if not record.get("stacked"):
            return tuple(tuple(_restored(data[f"{k}.{j}"], str(name)) for j, name in enumerate(names)) for k, names in enumerate(dtypes))
        count = int(record["draws"])
        if count == 0:
            return ()
        columns = [_restored(data[str(j)], str(name)) for j, name in enumerate(dtypes[0])]
    if any(column.ndim == 0 or column.shape[0] != count for column in columns):
        raise ValueError(f"blocks stacked for {[c.shape[:1] for c in columns]} draws where {count} were run")
    return tuple(tuple(column[k] for column in columns) for k in range(count))


def _restored(array: np.ndarray, name: str) -> np.ndarray:
    """A block in the dtype it was returned in (bfloat16 travels as float32); numbers only."""
    import jax.numpy as jnp

    dtype = jnp.dtype(name)
    if not (dtype.kind in "biuf" or jnp.issubdtype(dtype, jnp.floating)) or array.dtype.kind not in "biuf":
        raise ValueError(f"a block of {array.dtype} returned as {name}: not numbers")
    return array if array.dtype == dtype else array.astype(dtype)


def _read_problem(raw: Any) -> Problem | None:
    """A `Problem` from its JSON form."""
    if raw is None:
        return None
    return Problem(Kind(raw["kind"]), str(raw["message"]), raw["location"], raw["draw"], Status(raw["status"]))
