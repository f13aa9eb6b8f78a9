"""The worker: the process where a job's answers run (forked by its reaper, `_zygote`).

It confines itself (`_isolate`: descriptors, limits, then `_confine`), starts JAX's backend,
caps its address space, and runs the answers, writing each result as data only: `<index>.npz`
(blocks, read back without pickle) then `<index>.json` (problem, captured output, dtypes). The
file `current` in the job folder says what it is on (`_mark`), a claim the grader uses only to
pick which stage of the job's own it is on (`_sandbox._watch`).

Running the answers: each is first traced once for all its draws under `vmap` (`_runner.
trace_batched`, twice, to catch answers that keep state), and the traced answers are compiled
together as one program; any answer that does not trace cleanly runs as `check` runs it
(`_runner.run`).
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import sys
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from checker.grading import _confine, _linux, _scratch
from checker.grading._confine import Confinement
from checker.grading._linux import PR_SET_DUMPABLE, PR_SET_PDEATHSIG, prctl
from checker.grading._messages import Config, Job

if TYPE_CHECKING:
    from checker.engine._runner import Run
    from checker.engine._sampling import Draw

READY = "ready"  # written once JAX is up and the memory limit is set, before any answer runs
CURRENT = "current"  # what the worker is on: "trace N" or "run N" (puzzle N), or BATCH
BATCH = "batch"
FILE_CAP = 256 * 1024 * 1024  # bytes any one file the worker (or an answer) may write
# Descriptors a worker may hold (RLIMIT_NOFILE): JAX and the worker hold about 10. Pipes count
# against their user's quota of pipe buffers (fs.pipe-user-pages-soft, 16384 pages), 16 pages
# each, so a worker holds at most 64 pipes, 1/16 of it (red team, round 15: two workers of
# 1024 descriptors took it all).
WORKER_FILES = 128
PENDING_SIGNALS = 64  # queued signals a worker may hold (RLIMIT_SIGPENDING)
# The exit status of a worker whose results could not be written for a full disk (its stderr,
# a file, may hold nothing then). An answer can exit with it too: the grader goes by what it saw
# of the disk itself (`_disk.Watch`), and this tells the reader of a report why.
DISK_FULL = 75
WORKER_NICENESS = 10  # how much lower than the grader's a worker's scheduling priority is
# Faster XLA compilation for the kit's small programs; tried first, dropped if this jaxlib lacks it.
BATCH_OPTIONS: dict[str, Any] = {"xla_cpu_use_fusion_emitters": False}


def work(job: Job, config: Config, confinement: Confinement, draws: dict[str, tuple[Draw, ...]], arm: int,
         pidns: bool, sealed: bool) -> None:
    """Run the job's answers; never returns (exit status 0 once every result is written).

    `arm`: the pipe to the reaper (one byte, "ready"); `pidns`: the reaper is the first process
    of a pid namespace of the job's own; `sealed`: the job has a process group the reaper can
    seal (`_cgroups.seal`)."""
    jobdir = Path(job.jobdir)
    try:
        os.setsid()
        status = _isolate(job, config, confinement, jobdir, arm, pidns, sealed)
        if not (pidns or sealed):
            _below_the_grader()
        os.chdir(job.root)
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # after the uid change, which clears it
        if os.getppid() == 1 and not pidns:
            os._exit(1)
        _run_job(job, config, draws, jobdir, status)
    except BaseException as exc:  # noqa: BLE001 - the kit's own failure, for the grader to report
        with contextlib.suppress(BaseException):  # stderr is a file: on a full disk, printing fails too
            traceback.print_exc()
            sys.stderr.flush()
        os._exit(DISK_FULL if _scratch.disk_full(exc) else 70)
    os._exit(0)  # no interpreter shutdown: threads an answer left behind can't hold it up


def _isolate(job: Job, config: Config, confinement: Confinement, jobdir: Path, arm: int, pidns: bool,
             sealed: bool) -> int:
    """Descriptors, limits, namespaces of its own (as root, or in the zygote's user namespace),
    the seccomp filter, (as root) an unprivileged uid, no capability, and Landlock. Where the
    job has no process limit (`sealed`: a control group; or a uid of its own), the filter also
    refuses every new process. Returns a descriptor of its own /proc status, opened before
    Landlock: Landlock knows /proc/<pid> by the inode it saw, which the kernel drops under memory
    pressure and makes anew, so a later open can be refused (red team, round 8)."""
    # stdin an empty pipe, stdout a file of the job's: never the host's /dev/null, whose mode and
    # times a worker running as root (its owner) could change through its descriptor.
    empty, closed = os.pipe()
    os.close(closed)
    out = os.open(jobdir / "stdout", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    err = os.open(jobdir / "stderr", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(empty, 0)
    os.dup2(out, 1)
    os.dup2(err, 2)
    os.dup2(arm, 3)
    os.closerange(4, _max_fd())
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_CAP, FILE_CAP))
    resource.setrlimit(resource.RLIMIT_NOFILE, (WORKER_FILES, WORKER_FILES))
    _first_to_go()
    if job.enclose:
        _confine.enclose(config, confinement.view or _confine.plan_view(config), job.home)
        if confinement.counted and job.uid is None and config.processes > 0:
            # A plain user's: its threads held to the job's limit, in a user namespace of its own.
            _linux.count_own_tasks(config.processes)
    if confinement.seccomp:
        _confine.refuse_escape_calls(processes=sealed or job.uid is not None)
    # In namespaces of its own (as root, or in the zygote's user namespace) it holds every
    # capability until here: none is kept that could undo the namespaces, the filter or Landlock.
    _confine.lock_secure_bits()  # no exec as uid 0 gains any back (needs CAP_SETPCAP too)
    _linux.drop_bounding_set()  # needs CAP_SETPCAP, so before the uid changes
    if job.uid is not None:
        nproc = config.processes
        if nproc > 0:  # the uid is this job's alone: this counts the job's processes and threads
            resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
        _confine.become(job.uid)
    _linux.drop_capabilities()
    # Queued signals are counted per user (per user namespace since Linux 5.14): one worker that
    # queued its user's whole quota left every process of that user without a timer (red team,
    # round 11), and as root every root process. Its own need is a handful.
    resource.setrlimit(resource.RLIMIT_SIGPENDING, (PENDING_SIGNALS, PENDING_SIGNALS))
    prctl(PR_SET_DUMPABLE, 0)  # again: a uid change resets it to fs.suid_dumpable
    _private_home(jobdir)
    status = os.open("/proc/self/status", os.O_RDONLY | os.O_CLOEXEC)
    if confinement.landlock is not None:
        _confine.landlock_self(confinement.landlock, jobdir, job.root, private=job.enclose,
                               own_proc=job.enclose and pidns)
    if confinement.seccomp:
        _confine.refuse_landlock()
    return status


def _below_the_grader() -> None:
    """Run at a lower priority than the grader, its zygote and the reapers, for good
    (`RLIMIT_NICE` 0: no way back up without a capability), where the reaper ends the job's
    processes one by one (no pid namespace to end at once, no control group to seal): a job's
    processes that keep the cores busy while they fork (red team, round 7) cannot starve it."""
    resource.setrlimit(resource.RLIMIT_NICE, (0, 0))
    try:
        os.nice(WORKER_NICENESS)
    except OSError:
        pass  # already as low as a process goes


def _first_to_go() -> None:
    """Make this worker the kernel's first choice when memory runs out, never the grader: memory a
    worker holds outside its address space (a memfd written to, files on a tmpfs) is not counted
    as its own, so without this a worker that fills the machine (or a container's limit) gets the
    grader killed, run after run. Raising one's own score needs no privilege, but the file is
    root's while the process is non-dumpable (as the zygote made it): dumpable for that one write,
    before any answer runs."""
    prctl(PR_SET_DUMPABLE, 1)
    try:
        Path("/proc/self/oom_score_adj").write_text("1000")
    except OSError:  # no /proc: the limits per process remain
        pass
    finally:
        prctl(PR_SET_DUMPABLE, 0)


def _private_home(jobdir: Path) -> None:
    """HOME and TMPDIR: fresh 0700 folders in the job's own folder (never the host's /tmp,
    where a file planted by one job could be read by a later process)."""
    import tempfile

    for name, variable in (("home", "HOME"), ("tmp", "TMPDIR")):
        folder = jobdir / name
        folder.mkdir(mode=0o700)
        os.environ[variable] = str(folder)
    tempfile.tempdir = str(jobdir / "tmp")


def _max_fd() -> int:
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if 0 < soft < 1 << 20 else 4096


def _run_job(job: Job, config: Config, draws: dict[str, tuple[Draw, ...]], jobdir: Path, status: int) -> None:
    import jax.numpy as jnp

    from checker.engine import _integrity, _numerics, _runner

    timeout = config.timeout
    memory_mb = config.memory_mb
    items = [(i, name, path) for i, (name, path) in zip(job.indices, job.puzzles)]
    with _numerics.pinned():
        jnp.zeros(1).block_until_ready()  # the backend and its threads exist before the limit
        _limit_memory(memory_mb, status)
        _integrity.install_guards()
        sys.meta_path.append(_Missing())
        (jobdir / READY).write_text("")
        os.write(3, b"r")  # to the reaper, then to the grader: the worker is ready
        os.close(3)
        traced: dict[int, Any] = {}
        if job.batch:
            for index, name, path in items:
                _mark(jobdir, f"trace {index}")
                found = _runner.trace_batched(_puzzle(name), Path(path), draws[name], timeout)
                used = _integrity.used()
                if used:
                    _save(jobdir, index, _refused(used), memory_mb)
                elif found is not None:
                    traced[index] = found
            if traced:
                _mark(jobdir, BATCH)
                finished = _run_traced(traced, {i: (_puzzle(n), draws[n]) for i, n, _ in items})
                for index, run in finished.items():
                    _save(jobdir, index, run, memory_mb)
        for index, name, path in items:
            if (jobdir / f"{index}.json").exists():
                continue
            _mark(jobdir, f"run {index}")
            run = _runner.run(_puzzle(name), Path(path), draws[name], timeout)
            used = _integrity.used()
            _save(jobdir, index, _refused(used) if used else run, memory_mb)


class _Missing:
    """The last importer: remembers a module no importer found, so the next import of that name
    fails at once. JAX's lowering looks for optional modules thousands of times; where the
    worker's uid cannot list the folders Python is installed in, each look costs a dozen stats."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        sys.modules[name] = None  # type: ignore[assignment]  # "import of X halted": ImportError
        return None


def _run_traced(traced: dict[int, Any], puzzles: dict[int, tuple[Any, tuple[Draw, ...]]]) -> dict[int, Run]:
    """Compile the traced answers as one program, run it, and read each answer's blocks per draw.

    An answer whose blocks do not read cleanly is left out: it then runs as `check` runs it,
    which reports the problem in the same words.
    """
    import jax
    from jax.extend.core import jaxpr_as_fun

    from checker.engine._runner import Problem, Run, _blocks
    from checker.engine._settings import ANSWER_COMPILE

    options: dict[str, Any] = {**ANSWER_COMPILE}

    order = sorted(traced)
    programs = [jax.vmap(jaxpr_as_fun(traced[i].jaxpr)) for i in order]

    def everything(*groups: tuple[Any, ...]) -> list[Any]:
        return [program(*group) for program, group in zip(programs, groups)]

    inputs = [traced[i].inputs for i in order]
    lowered = jax.jit(everything).lower(*inputs)
    try:
        compiled = lowered.compile({**options, **BATCH_OPTIONS})
    except Exception:  # noqa: BLE001 - an XLA without that option: compile as the check does
        compiled = lowered.compile(options)
    outputs = compiled(*inputs)
    runs: dict[int, Run] = {}
    for index, flat in zip(order, outputs):
        puzzle, draws = puzzles[index]
        leaves = [np.array(leaf) for leaf in flat]
        if traced[index].op_by_op:  # those draws as `check` runs them: the program op by op
            alone = jaxpr_as_fun(traced[index].jaxpr)
            for k in traced[index].op_by_op:
                for leaf, value in zip(leaves, alone(*(column[k] for column in traced[index].inputs))):
                    leaf[k] = np.asarray(value)
        answers = []
        for k in range(len(draws)):
            blocks = _blocks(puzzle, traced[index].out_tree.unflatten([leaf[k] for leaf in leaves]))
            if isinstance(blocks, Problem):
                break
            answers.append(blocks)
        else:
            runs[index] = Run(tuple(answers))
    return runs


def _refused(used: list[str]) -> Run:
    """The verdict on an answer that called autodiff or imported the kit while it ran."""
    from checker.engine import _integrity
    from checker.engine._runner import Problem, Run
    from checker.engine._verdict import Kind

    return Run(problem=Problem(Kind.FORBIDDEN, _integrity.message(used)))


def _mark(jobdir: Path, what: str) -> None:
    """Say what the worker is on now (atomically), for the grader's watch and blame."""
    partial = jobdir / f"{CURRENT}.partial"
    partial.write_text(what)
    os.replace(partial, jobdir / CURRENT)


# The variants the grader runs answers against, by slot (`_sandbox.Pool`): rendered once, by the
# zygote, before any job is forked; a slot not here is a puzzle's name (its canonical variant).
_VARIANTS: dict[str, Any] = {}


def load_variants(config: Config) -> None:
    """Render the grader's variants (slot -> puzzle name and choices) into `_VARIANTS`."""
    from checker.engine import _variants

    for slot, (name, chosen) in config.variants.items():
        _VARIANTS[slot] = _variants.variant(name, chosen)


def _puzzle(slot: str) -> Any:
    """The concrete puzzle a job's slot runs answers against."""
    from checker.engine._catalog import puzzle_named

    return _VARIANTS[slot] if slot in _VARIANTS else puzzle_named(slot)


def load_draws(config: Config) -> dict[str, tuple[Draw, ...]]:
    """The grader's draws, per puzzle, from its `.npz` and labels file (no pickle)."""
    from checker.engine._sampling import Draw

    labels: dict[str, list[str]] = json.loads(Path(config.labels).read_text())
    found: dict[str, tuple[Draw, ...]] = {}
    with np.load(config.draws, allow_pickle=False) as arrays:
        for name, count in config.arity.items():
            stacked = [arrays[f"{name}.{i}"] for i in range(count)] if labels[name] else []
            found[name] = tuple(Draw(label, tuple(a[k] for a in stacked)) for k, label in enumerate(labels[name]))
    return found


def _limit_memory(megabytes: int, status: int) -> None:
    """Cap the address space at what JAX already holds plus `megabytes` for student code.

    JAX maps well over a gigabyte of address space before any answer runs, so the limit is set
    here, once JAX is up, rather than before the process starts.
    """
    if megabytes <= 0:
        return
    held = _address_space(status)
    limit = held + megabytes * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _address_space(status: int) -> int:
    """Bytes of address space this process maps now (VmSize), from its /proc status (`status`, a
    descriptor: each read from offset 0 is the status as it is now)."""
    try:
        return int(_linux.status_field(os.pread(status, 1 << 16, 0).decode(), "VmSize")) * 1024
    except OSError:
        return 0


def _save(out: Path, index: int, run: Run, memory_mb: int) -> None:
    """Write one puzzle's run: blocks to `<index>.npz`, then the rest to `<index>.json`.

    When every draw's blocks have the same shapes and dtypes (always, for a batched answer),
    block j of all draws travels as one array `j`; otherwise each as `<draw>.<j>`.
    """
    draws = [[np.asarray(block) for block in blocks] for blocks in run.answers]
    layout = [(a.shape, a.dtype) for a in draws[0]] if draws else []
    stacked = all([(a.shape, a.dtype) for a in blocks] == layout for blocks in draws)
    arrays: dict[str, np.ndarray] = {}
    dtypes: list[list[str]] = []
    if stacked:
        for j, _ in enumerate(layout):
            arrays[str(j)] = _portable(np.stack([blocks[j] for blocks in draws]))
        dtypes = [[dtype.name for _, dtype in layout]]
    else:
        for k, blocks in enumerate(draws):
            for j, block in enumerate(blocks):
                arrays[f"{k}.{j}"] = _portable(block)
            dtypes.append([block.dtype.name for block in blocks])
    np.savez(out / f"{index}.npz", allow_pickle=False, **arrays)
    problem = None
    if run.problem is not None:
        p = run.problem
        problem = {"kind": p.kind.value, "message": _memory_message(p.message, memory_mb), "location": p.location,
                   "draw": p.draw, "status": p.status.value}
    record = {"problem": problem, "output": run.output, "stacked": stacked, "draws": len(draws), "dtypes": dtypes}
    partial = out / f"{index}.json.partial"
    partial.write_text(json.dumps(record))
    os.replace(partial, out / f"{index}.json")


def _portable(array: np.ndarray) -> np.ndarray:
    """Numbers numpy saves without pickle: bfloat16, the float8s and int4 travel as float32 (exact)."""
    return array if array.dtype.kind in "biuf" else array.astype(np.float32)


def _memory_message(message: str, memory_mb: int) -> str:
    """Name the memory limit when the answer ran out of memory under it."""
    if memory_mb > 0 and "MemoryError" in message:
        return f"exceeded the {memory_mb} MB memory limit ({message})"
    return message
