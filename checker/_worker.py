"""The child process of class grading: runs one submission's answers, writes what they returned.

`python -m checker._worker JOBDIR`, started by `_sandbox` with the submission's folder as its
working directory. It reads `JOBDIR/job.json` (the puzzles still to run, the seed, the limits,
where the grader wrote the draws), then, puzzle by puzzle, runs the answer with
`checker._runner.run` and writes its result as data only: `<index>.npz` (the blocks, saved
without pickle) and then `<index>.json` (the problem, the captured output, the block layout).
The JSON file appears last and atomically, so it marks a puzzle as finished: when this process
dies on a puzzle, the grader knows which one and starts a fresh worker for the rest.

Nothing is written to stdout: the learner's prints are captured by the runner, and anything
written to the file descriptors directly goes where the grader pointed them, never parsed.
The grader, not this process, judges: a result that lies only fails to match the expected
Jacobians the grader computed itself.
"""

from __future__ import annotations

import json
import os
import resource
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from checker._runner import Run
    from checker._sampling import Draw

READY = "ready"  # written once JAX is up and the memory limit is set, before any learner code runs
JOB = "job.json"


def _load_draws(job: dict[str, Any]) -> dict[str, tuple[Draw, ...]]:
    """The grader's draws, per puzzle, from its `.npz` and labels file (no pickle)."""
    from checker._sampling import Draw

    labels: dict[str, list[str]] = json.loads(Path(job["labels"]).read_text())
    arrays = np.load(job["draws"], allow_pickle=False)
    found: dict[str, tuple[Draw, ...]] = {}
    for name, _ in job["puzzles"]:
        count = int(job["arity"][name])
        found[name] = tuple(
            Draw(label, tuple(arrays[f"{name}.{k}.{i}"] for i in range(count))) for k, label in enumerate(labels[name])
        )
    return found


def _limit_memory(megabytes: int) -> None:
    """Cap the address space at what JAX already holds plus `megabytes` for learner code.

    JAX maps well over a gigabyte of address space before any answer runs, so the limit is set
    here, once JAX is up, rather than before the process starts.
    """
    if megabytes <= 0:
        return
    held = _address_space()
    limit = held + megabytes * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _address_space() -> int:
    """Bytes of address space this process maps now (VmSize)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
    return 0


def _save(out: Path, index: int, run: Run, memory_mb: int) -> None:
    """Write one puzzle's run: blocks to `<index>.npz`, then the rest to `<index>.json`."""
    arrays: dict[str, np.ndarray] = {}
    dtypes: list[list[str]] = []
    for k, blocks in enumerate(run.answers):
        names = []
        for j, block in enumerate(blocks):
            array = np.asarray(block)
            names.append(array.dtype.name)
            if array.dtype.kind not in "biuf":  # bfloat16, float8: exact in float32, restored by name
                array = array.astype(np.float32)
            arrays[f"{k}.{j}"] = array
        dtypes.append(names)
    np.savez(out / f"{index}.npz", allow_pickle=False, **arrays)
    problem = None
    if run.problem is not None:
        p = run.problem
        problem = {"kind": p.kind.value, "message": _memory_message(p.message, memory_mb), "location": p.location, "draw": p.draw, "status": p.status.value}
    record = {"problem": problem, "output": run.output, "dtypes": dtypes}
    partial = out / f"{index}.json.partial"
    partial.write_text(json.dumps(record))
    os.replace(partial, out / f"{index}.json")


def _memory_message(message: str, memory_mb: int) -> str:
    """Name the memory limit when the answer ran out of memory under it."""
    if memory_mb > 0 and "MemoryError" in message:
        return f"exceeded the {memory_mb} MB memory limit ({message})"
    return message


def _die_with_parent() -> None:
    """Ask Linux to SIGKILL this process when the grader dies (`kill -9` of the grader)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    pr_set_pdeathsig = 1
    try:
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, 9)
    except (OSError, AttributeError):
        return
    if os.getppid() == 1:  # the grader is already gone
        os._exit(1)


def main(argv: list[str]) -> int:
    """Run every puzzle of the job in `argv[0]`; returns the exit status (0 once all are written)."""
    _die_with_parent()
    jobdir = Path(argv[0])
    job = json.loads((jobdir / JOB).read_text())
    import jax.numpy as jnp

    from checker import _numerics, _runner
    from checker._catalog import puzzle_named

    with _numerics.pinned():
        jnp.zeros(1).block_until_ready()  # the backend and its threads exist before the limit
        draws = _load_draws(job)
        _limit_memory(int(job["memory_mb"]))
        (jobdir / READY).write_text("")
        for index, (name, path) in zip(job["indices"], job["puzzles"]):
            run = _runner.run(puzzle_named(name), Path(path), draws[name], float(job["timeout"]))
            _save(jobdir, int(index), run, int(job["memory_mb"]))
    return 0


if __name__ == "__main__":
    os._exit(main(sys.argv[1:]))  # skip interpreter shutdown: threads a learner left behind can't hold it up
