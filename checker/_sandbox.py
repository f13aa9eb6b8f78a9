"""Running one submission's answers out of process, for class grading.

The grader's side of `_worker`: each submission gets fresh worker processes of its own (never
one where another submission's code ran), started in a new session with stdin closed and
stdout discarded, with a wall-clock budget enforced from here, core dumps off, file size
capped, and an address-space limit the worker sets on itself before any answer runs. Results
come back as `.npz` and JSON files in a private folder this side created; a worker that dies,
hangs or runs out of memory costs the puzzle it was on, and a fresh worker runs the rest.
`run_submission` returns the same `Run`s as the in-process runner, so the judge never knows.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from checker._catalog import puzzle_named
from checker._runner import Problem, Run
from checker._sampling import Draw
from checker._verdict import Kind, Status
from checker._worker import JOB, READY

STARTUP_BUDGET = 120.0  # seconds for a worker to import JAX before any answer runs (a busy machine)
POLL = 0.05  # seconds between looks at a running worker
FILE_CAP = 256 * 1024 * 1024  # bytes any one file the worker (or an answer) writes may reach
STDERR_TAIL = 4000  # bytes of a dead worker's stderr read back, for the reason it died
# The worker starts without the working directory (the submission) on sys.path: a submission's
# `numpy.py` or `checker/` must not stand in for the real ones.
_BOOT = "import sys, runpy; sys.path.pop(0); runpy.run_module('checker._worker', run_name='__main__')"
# What a process that ran out of memory under RLIMIT_AS tends to print before dying.
_MEMORY_HINTS = ("MemoryError", "bad_alloc", "Cannot allocate memory", "out of memory", "RESOURCE_EXHAUSTED")


_STOP = threading.Event()  # set when the grader is interrupted: every running worker is killed


def stop_all() -> None:
    """Kill every running worker at its next look (Ctrl-C in the grader)."""
    _STOP.set()


@dataclass(frozen=True)
class Limits:
    """What one submission's code may use: seconds per import or call, megabytes on top of JAX."""

    timeout: float
    memory_mb: int

    def puzzle_budget(self) -> float:
        """Wall-clock seconds one puzzle may take in all (import, compiled run, eager rerun)."""
        return self.timeout * 2 + 5


@dataclass(frozen=True)
class SharedDraws:
    """The class-wide draws, written once by the grader for every worker to read."""

    arrays: Path  # .npz, keys "<puzzle>.<draw>.<argument>"
    labels: Path  # JSON: puzzle -> draw labels
    arity: dict[str, int]  # puzzle -> arguments per draw
    counts: dict[str, int]  # puzzle -> draws


def share_draws(folder: Path, draws: dict[str, tuple[Draw, ...]]) -> SharedDraws:
    """Write `draws` (puzzle -> draws) into `folder` for the workers."""
    arrays = {f"{name}.{k}.{i}": v for name, ds in draws.items() for k, d in enumerate(ds) for i, v in enumerate(d.values)}
    np.savez(folder / "draws.npz", allow_pickle=False, **arrays)
    (folder / "labels.json").write_text(json.dumps({name: [d.label for d in ds] for name, ds in draws.items()}))
    arity = {name: len(ds[0].values) if ds else 0 for name, ds in draws.items()}
    return SharedDraws(folder / "draws.npz", folder / "labels.json", arity, {name: len(ds) for name, ds in draws.items()})


@dataclass(frozen=True)
class _Ended:
    """How a worker ended: its exit status, and whether this side killed it for time."""

    returncode: int
    timed_out: bool
    ready: bool
    stderr: str


class WorkerFailure(Exception):
    """The grader's own worker could not run (no learner code had run yet): the submission is
    ungradable, never scored 0."""


def run_submission(root: Path, items: Sequence[tuple[str, str]], shared: SharedDraws, limits: Limits) -> list[Run]:
    """Run each `(puzzle, path relative to root)` of one submission; one `Run` per item, in order.

    Raises `WorkerFailure` when a worker dies before running any answer.
    """
    runs: dict[int, Run] = {}
    with tempfile.TemporaryDirectory(prefix="jacpuzzles-run-") as tmp:
        attempt = 0
        while len(runs) < len(items):
            remaining = [i for i in range(len(items)) if i not in runs]
            jobdir = Path(tmp) / f"attempt-{attempt}"
            jobdir.mkdir(mode=0o700)
            _write_job(jobdir, [items[i] for i in remaining], remaining, shared, limits)
            ended = _drive(jobdir, root, limits)
            if _STOP.is_set():
                raise WorkerFailure("grading was interrupted")
            for i in remaining:
                found = _read_result(jobdir, i, items[i][0], shared.counts[items[i][0]])
                if found is not None:
                    runs[i] = found
            unfinished = [i for i in remaining if i not in runs]
            if not unfinished:
                break
            if not ended.ready:
                raise WorkerFailure(f"the grading worker failed before running any answer ({_how(ended)}): {ended.stderr.strip()[-500:]}")
            culprit = unfinished[0]
            runs[culprit] = Run(problem=_died(items[culprit][1], ended, limits))
            attempt += 1
    return [runs[i] for i in range(len(items))]


def _write_job(jobdir: Path, items: list[tuple[str, str]], indices: list[int], shared: SharedDraws, limits: Limits) -> None:
    """The worker's instructions: which answers, on which draws, under which limits."""
    job = {
        "puzzles": [list(item) for item in items],
        "indices": indices,
        "timeout": limits.timeout,
        "memory_mb": limits.memory_mb,
        "draws": str(shared.arrays),
        "labels": str(shared.labels),
        "arity": shared.arity,
    }
    (jobdir / JOB).write_text(json.dumps(job))


def _drive(jobdir: Path, root: Path, limits: Limits) -> _Ended:
    """Start a worker on `jobdir` in `root`, watch it against the budgets, and end its session."""
    with open(jobdir / "stderr", "wb") as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-c", _BOOT, str(jobdir)],
            cwd=root, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr,
            start_new_session=True, env=_environment(),
        )
    _limit(proc.pid)
    timed_out = False
    try:
        timed_out = _watch(proc, jobdir, limits)
    finally:
        _kill_session(proc)
    return _Ended(proc.returncode, timed_out, (jobdir / READY).exists(), _tail(jobdir / "stderr"))


def _environment() -> dict[str, str]:
    """The worker's environment: the grader's, without a persistent compilation cache to share."""
    env = dict(os.environ)
    env["JACPUZZLES_CACHE"] = "off"  # a submission must not write cache entries another one reads
    env.pop("JAX_COMPILATION_CACHE_DIR", None)
    return env


def _limit(pid: int) -> None:
    """No core dumps, no huge files (set from here: `preexec_fn` is unsafe with threads)."""
    import resource

    if not hasattr(resource, "prlimit"):  # not Linux: the worker runs without these two caps
        return
    try:
        resource.prlimit(pid, resource.RLIMIT_CORE, (0, 0))
        resource.prlimit(pid, resource.RLIMIT_FSIZE, (FILE_CAP, FILE_CAP))
    except (ProcessLookupError, PermissionError):
        pass  # already gone: `_drive` reports how it ended


def _watch(proc: subprocess.Popen[bytes], jobdir: Path, limits: Limits) -> bool:
    """Wait for the worker; True when it overran a budget (it is then killed)."""
    seen = -1
    since = time.monotonic()
    while True:
        try:
            proc.wait(timeout=POLL)
            return False
        except subprocess.TimeoutExpired:
            pass
        progress = _progress(jobdir)
        now = time.monotonic()
        if progress != seen:
            seen, since = progress, now
        budget = limits.puzzle_budget() if progress >= 0 else STARTUP_BUDGET
        if now - since > budget or _STOP.is_set():
            return True


def _progress(jobdir: Path) -> int:
    """Puzzles finished by the worker, or -1 before it is ready."""
    if not (jobdir / READY).exists():
        return -1
    return sum(1 for p in jobdir.iterdir() if p.suffix == ".json" and p.name != JOB)


def _kill_session(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL the worker's whole process group: whatever an answer started goes with it."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()


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
        run = Run(_read_blocks(jobdir / f"{index}.npz", record["dtypes"]), _read_problem(record["problem"]), str(record["output"]))
        blocks = len(puzzle_named(puzzle).jac_shapes())
        if run.problem is None and (len(run.answers) != draws or any(len(b) != blocks for b in run.answers)):
            raise ValueError(f"{len(run.answers)} draws of blocks where {draws} draws of {blocks} were run")
        return run
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return Run(problem=Problem(Kind.EXCEPTION, f"the result of this answer could not be read back ({type(exc).__name__}: {exc}); did it write into the grader's files?"))


def _read_blocks(path: Path, dtypes: list[list[str]]) -> tuple[tuple[np.ndarray, ...], ...]:
    """The blocks per draw, from an `.npz` read without pickle, in the dtypes they came in."""
    answers = []
    with np.load(path, allow_pickle=False) as data:
        for k, names in enumerate(dtypes):
            answers.append(tuple(_restored(data[f"{k}.{j}"], str(name)) for j, name in enumerate(names)))
    return tuple(answers)


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
