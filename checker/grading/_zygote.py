"""The processes of class grading that run student code: a zygote, a reaper and a worker per job.

This module is the zygote and the reapers (supervision); `_confine` confines a worker, `_worker`
runs its job.

`python -c BOOT KIT CONFIG` (started by `_sandbox`) is the **zygote**: it imports JAX, the kit
and the learner-facing libraries, and loads the grader's draws, but never initializes JAX's
backend (a process whose backend threads exist cannot be forked safely) and never runs student
code. For each job the grader sends it (a JSON line on stdin), it forks:

- a **reaper**, trusted kit code, a child subreaper: every process the job starts stays in its
  tree, whatever sessions it makes; it forks the worker, tells the grader the worker's pid,
  waits for it, then kills everything left in its tree and reports how the worker ended.
  Where jobs get namespaces, it is the first process of a pid namespace of the job's own, made
  by the zygote's child that forks it and waits outside (`_confine.new_pid_namespace`).
- the **worker**, where the student's code runs: a new session, stdin and stdout on /dev/null,
  stderr into the job's folder, core dumps off, files capped; as root (or as a plain user, in
  the zygote's user namespace: `_linux.zygote_user_namespace`), namespaces of its own
  (mount: a file system of its own, an allow-list, with a private /tmp; pid: the reaper is its first process;
  network; IPC; UTS); as root, control groups (memory over the tree, processes) and an unprivileged uid of
  its own, with a process limit; in every configuration no capability left, a seccomp filter
  (`_confine.refuse_escape_calls`) and Landlock (`_confine.landlock_self`: read the allow-list, write
  its job folder only, no TCP, no abstract sockets or signals out), and HOME and TMPDIR of its own in
  its job folder; the working directory is a private copy of the submission's answer files. Its only other
  descriptor, a pipe to the reaper, carries one byte ("ready, no answer loaded yet") and is
  closed before any answer loads. It starts JAX's backend, caps
  its address space, and runs the answers, writing each result as data only: `<index>.npz`
  (blocks, read back without pickle) then `<index>.json` (problem, captured output, dtypes).

Forking from the zygote saves each job JAX's import (docs/performance.md).

The reaper's messages (`started`, `armed`, `ended`) and the zygote's (`ready`, `forked`,
`reaped`) go to the grader on the zygote's stdout, which no worker holds. The file `current` in
the job folder says what the worker is doing (a puzzle's index, or `batch` while the traced
answers are compiled and run): a claim the grader uses only to pick which stage of the job's
own it is on (`_sandbox._watch`). Everything the worker writes is read back by the grader as
hostile data (`_results.read_result`).
"""

from __future__ import annotations

import gc
import json
import os
import select
import signal
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from checker.grading import _cgroups, _confine, _worker
from checker.grading._confine import Confinement
from checker.grading._linux import (
    PR_SET_CHILD_SUBREAPER,
    PR_SET_DUMPABLE,
    PR_SET_PDEATHSIG,
    prctl,
    status_field,
)
from checker.grading._messages import Config, Job

if TYPE_CHECKING:
    from checker.engine._sampling import Draw

# Imported by the zygote: JAX and what it imports lazily to start its backend and compile, the
# kit, and what answer files commonly import.
PRELOAD = (
    "jax.numpy", "jax.extend.core", "jax.experimental.shard_map", "jax.experimental.jet",
    "jax.experimental.multihost_utils", "jax._src.checkify", "jaxlib.mlir.dialects.mhlo",
    "jaxlib.mlir.dialects.builtin", "jaxlib.mlir.extras.meta",
    "jax.nn", "jax.lax", "jax.scipy.special", "jax.scipy.linalg", "jax.numpy.linalg", "numpy.linalg",
    "jaxtyping", "einops", "optax", "checker.engine._integrity", "checker.engine._runner", "checker.engine._forms",
    "math", "itertools", "functools", "operator", "string", "typing", "collections", "dataclasses",
)
# XLA options that halve compile times of the kit's small programs without changing results.
WORKER_XLA_FLAGS = "--xla_cpu_use_fusion_emitters=false --xla_backend_optimization_level=0"
_ORPHAN_SCAN = 0.5  # seconds between the zygote's looks for orphans to kill
CLEARING = 20.0  # seconds a reaper spends killing what its job left, before the zygote takes over
THREAD_WATCH = 0.01  # seconds between a reaper's counts of its worker's threads, where it counts them
MEMORY_ALLOWANCE_MB = 768  # what a worker's tree uses beyond the zygote's shared pages (JAX's backend, compiling)
_GROUPS: list[_cgroups.Groups] = []  # where this zygote's jobs get their groups, once probed


# ---------------------------------------------------------------------------------------------
# The zygote


def zygote(config_path: str, user_namespace: str) -> int:
    """Serve jobs from stdin until it closes; returns the exit status. `user_namespace`: "" when
    it runs in a user namespace of its own (`_linux.zygote_user_namespace`), else why not."""
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    prctl(PR_SET_DUMPABLE, 0)  # no process of its uid reads its memory, environment or descriptors
    # (after the user namespace's maps are written: a non-dumpable process cannot write its own)
    config = Config.from_json(Path(config_path).read_text())
    import importlib

    for module in PRELOAD:  # once here, so no job pays for them (and a worker that runs as
        try:  # another user needs no access to where they are installed)
            importlib.import_module(module)
        except ImportError:
            pass

    if config.packs:  # the packs' catalogs, as text: their folders (and answers) are never in view
        from checker.engine import _catalog

        _catalog.use_packs(texts=list(config.packs))
    draws = _worker.load_draws(config)
    _worker.load_variants(config)
    _faster_compilation()
    found, confinement = _probe(config, user_namespace)
    enclosed = found.get("namespaces") == ""
    from checker.engine import _runner

    _runner.own_primitives()  # JAX's own primitives, found before the heap is frozen (and hidden)
    # Everything imported so far is shared with every job, copy-on-write; frozen, it is left out
    # of the jobs' garbage collections, which would otherwise touch (and copy) all of it.
    gc.freeze()
    _send({"event": "ready", **found})
    reapers: dict[int, str] = {}  # reaper pid -> job id
    last_scan = time.monotonic()
    stdin = sys.stdin.buffer
    pending = b""
    while True:
        readable, _, _ = select.select([stdin], [], [], 0.05)
        if readable:
            chunk = os.read(stdin.fileno(), 65536)
            if not chunk:
                break
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                job = Job.from_json(line)
                try:
                    pid = os.fork()
                except OSError as exc:  # no task left (another process took them): this job only
                    _send({"event": "unforked", "id": job.id, "why": exc.strerror or str(exc)})
                    continue
                if pid == 0:
                    _reaper(job, enclosed and _confine.new_pid_namespace(), config, confinement, draws)  # never returns
                _send({"event": "forked", "id": job.id, "reaper": pid})
                reapers[pid] = job.id
        _reap(reapers)
        if time.monotonic() - last_scan > _ORPHAN_SCAN:
            _kill_children(exclude=set(reapers))
            last_scan = time.monotonic()
    for pid in list(reapers):
        _kill(pid)
    _kill_tree()
    for job_id in reapers.values():
        _release_groups(job_id)
    _cgroups.remove(_GROUPS[0] if _GROUPS else None)
    return 0


def _probe(config: Config, user_namespace: str) -> tuple[dict[str, Any], Confinement]:
    """What confinement this machine allows a worker: for the grader, each kind "" when it can,
    else why not; for the workers, how to apply it."""
    privileged = (os.geteuid() == 0 or user_namespace == "") and sys.platform.startswith("linux")
    view = _confine.plan_view(config) if privileged else None
    found: dict[str, Any] = {**_confine.probe(config, view, user_namespace), "user_namespace": user_namespace}
    found.update(_probe_groups(config))
    found["landlock"], plan = _confine.probe_landlock(config, view, enclosed=found.get("namespaces") == "")
    if found["landlock"]:
        plan = None
    else:
        assert plan is not None
        found["landlock_abi"] = plan.abi
    found["seccomp"] = (_confine.try_in_child(_confine.refuse_escape_calls_and_prove_it, "seccomp")
                        if _confine.seccomp_available() == "" else _confine.seccomp_available())
    found["capabilities"] = (_confine.try_in_child(_confine.drop_capabilities_and_prove_it, "capabilities")
                             if sys.platform.startswith("linux") else "not Linux")
    return found, Confinement(view, plan, seccomp=found["seccomp"] == "", counted=found.get("counted") == "")


def _faster_compilation() -> None:
    """Compile options for every XLA compilation in the workers (answers' module-level code
    too), kept only if this jaxlib knows them: XLA ends a process on an unknown flag, so a
    forked child tries them first."""
    before = os.environ.get("XLA_FLAGS", "")
    os.environ["XLA_FLAGS"] = f"{before} {WORKER_XLA_FLAGS}".strip()
    pid = os.fork()
    if pid == 0:
        import jax.numpy as jnp

        os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
        jnp.zeros(1).block_until_ready()
        os._exit(0)
    if os.waitpid(pid, 0)[1] != 0:
        os.environ["XLA_FLAGS"] = before


def _reap(reapers: dict[int, str]) -> None:
    """Collect ended children: a reaper's end is reported, an orphan's is just collected."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        job = reapers.pop(pid, None)
        if job is not None:
            _send({"event": "reaped", "id": job, "status": _returncode(status), **_release_groups(job)})





def _probe_groups(config: Config) -> dict[str, str]:
    """Whether a job can get control groups of its own, for the grader: `groups` "" when it
    can (else why not), `memory_groups` the memory folder of job `{job}`, `cgroup` which kind."""
    groups, why_not = _cgroups.probe(os.getpid())
    if groups is None:
        return {"groups": why_not}
    try:
        _release_groups("probe", _join_groups("probe", config, groups, join=False))
    except OSError as exc:
        _cgroups.remove(groups)
        return {"groups": f"cannot make a control group ({groups.describe()}): {exc}"}
    _GROUPS.append(groups)
    return {"groups": "", "memory_groups": groups.memory_template(), "cgroup": groups.describe()}


def _join_groups(job: str, config: Config, groups: _cgroups.Groups, join: bool = True) -> dict[str, Path]:
    """Make the job's control groups, with its limits, and move this process (the reaper) in."""
    memory_mb = config.memory_mb
    folders = _cgroups.make(groups, job, (memory_mb + MEMORY_ALLOWANCE_MB) * 1024 * 1024 if memory_mb > 0 else 0,
                            config.processes)
    if join:
        _cgroups.join(folders, os.getpid())
    return folders


def _release_groups(job: str, folders: dict[str, Path] | None = None) -> dict[str, Any]:
    """Remove the job's (now empty) control groups; says whether its memory limit was hit."""
    if folders is None:
        if not _GROUPS:
            return {}
        folders = _GROUPS[0].job(job)
    return _cgroups.release(folders)


# ---------------------------------------------------------------------------------------------
# The reaper


def _reaper(job: Job, pidns: bool, config: Config, confinement: Confinement,
            draws: dict[str, tuple[Draw, ...]]) -> None:
    """Fork the worker, wait for it, kill whatever it left, report; never returns. `pidns`: this
    process is the first of a pid namespace of the job's own."""
    try:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        prctl(PR_SET_CHILD_SUBREAPER, 1)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        folders = _join_groups(job.id, config, _GROUPS[0]) if _GROUPS else None
        armed, arm = os.pipe()
        worker = os.fork()
        if worker == 0:
            os.close(armed)
            _worker.work(job, config, confinement, draws, arm, pidns, folders is not None)  # never returns
        os.close(arm)
        # In a pid namespace the worker's pid means nothing outside it: the grader kills this
        # process instead, the namespace's first, which takes every other one with it.
        _send({"event": "started", "id": job.id, "worker": None if pidns else worker})
        # One byte before any answer is loaded, then the worker closes its end: what it does
        # afterwards cannot take back that it was ready, nor claim it later.
        if os.read(armed, 1) == b"r":
            _send({"event": "armed", "id": job.id})
        os.close(armed)
        # Where nothing else bounds the job's tasks (no process group, no uid of its own, no pid
        # namespace in which this process could look at the worker), its threads are counted here.
        watched = config.processes if folders is None and job.uid is None and not pidns else 0
        status, threads = _wait(worker, watched)
        if folders is not None:
            _cgroups.seal(folders)  # nothing the job left can start another process
        if pidns:
            _kill_namespace()
        else:
            _kill_tree()
        _send({"event": "ended", "id": job.id, "status": _returncode(status), "threads": threads})
    finally:
        os._exit(0)


def _wait(worker: int, threads: int) -> tuple[int, int]:
    """Wait for the worker to end: its wait status, and how many threads it held when this
    process killed it for holding more than `threads` (0: none, or it was not watched). A
    worker that cannot start processes can still start threads, each a task of the machine's:
    thousands of them would leave no pid to anyone's fork for as long as its job lasts (red
    team, round 10). Watched every `THREAD_WATCH` seconds; `threads` 0 waits without looking."""
    if threads <= 0:
        return os.waitpid(worker, 0)[1], 0
    status_file = f"/proc/{worker}/status"
    while True:
        pid, status = os.waitpid(worker, os.WNOHANG)
        if pid:
            return status, 0
        held = _threads(status_file)
        if held > threads:
            _kill(worker)
            return os.waitpid(worker, 0)[1], held
        time.sleep(THREAD_WATCH)


def _threads(status_file: str) -> int:
    """The `Threads:` count of a /proc status file (0 when it cannot be read)."""
    try:
        return int(status_field(Path(status_file).read_text(), "Threads"))
    except (OSError, ValueError):
        return 0


def _kill_namespace() -> None:
    """As the first process of a pid namespace: SIGKILL every other one in it, and collect them."""
    try:
        os.kill(-1, signal.SIGKILL)
    except OSError:
        pass
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return
        except InterruptedError:
            continue


def _kill_tree() -> None:
    """SIGKILL every descendant and collect it. Each round kills the children there are now; a
    killed process's orphans come back here (a subreaper) for the next round. Rounds follow each
    other without a pause and read this process's own list of children, a few microseconds, so
    a chain of processes that each fork and exit at once (red team, round 7) cannot outrun them:
    a scan of all of /proc between rounds let such a chain live on for minutes. After
    `CLEARING` seconds the zygote's own scans take over whatever is left."""
    deadline = time.monotonic() + CLEARING
    while time.monotonic() < deadline:
        _collect()
        children = _children()
        if not children:
            break
        for pid in children:
            _kill(pid)
    _collect()


def _kill_children(exclude: set[int]) -> bool:
    """SIGKILL this process's children (but `exclude`) and collect them; False when there were none."""
    found = [pid for pid in _children() if pid not in exclude]
    for pid in found:
        _kill(pid)
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            pass
    return bool(found)


def _children() -> list[int]:
    """This process's children, dead or alive but not yet collected. It has one thread (forked
    from one), whose list the kernel keeps where `CONFIG_PROC_CHILDREN` is on; else a scan of
    /proc for the processes whose parent it is."""
    me = os.getpid()
    try:
        return [int(pid) for pid in Path(f"/proc/{me}/task/{me}/children").read_text().split()]
    except OSError:
        pass
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        if stat[stat.rindex(")") + 2 :].split()[1] == str(me):  # field 4, after the command's name
            found.append(int(entry))
    return found


def _collect() -> None:
    """Collect every child that has ended, without waiting for the others."""
    while True:
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0:
                return
        except ChildProcessError:
            return


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


# ---------------------------------------------------------------------------------------------
# Shared


def _send(message: dict[str, Any]) -> None:
    """One line to the grader, in one write (atomic on a pipe below 4 KB)."""
    os.write(1, (json.dumps(message) + "\n").encode())


def _returncode(status: int) -> int:
    """A wait status as subprocess reports it: the exit code, or minus the signal."""
    return os.waitstatus_to_exitcode(status)



if __name__ == "__main__":
    os._exit(zygote(sys.argv[1], sys.argv[2]))
