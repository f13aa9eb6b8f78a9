"""The processes of class grading that run student code: a zygote, a reaper and a worker per job.

`python -c BOOT KIT CONFIG` (started by `_sandbox`) is the **zygote**: it imports JAX, the kit
and the learner-facing libraries, and loads the grader's draws, but never initializes JAX's
backend (a process whose backend threads exist cannot be forked safely) and never runs student
code. For each job the grader sends it (a JSON line on stdin), it forks:

- a **reaper**, trusted kit code, a child subreaper: every process the job starts stays in its
  tree, whatever sessions it makes; it forks the worker, tells the grader the worker's pid,
  waits for it, then kills everything left in its tree and reports how the worker ended.
- the **worker**, where the student's code runs: a new session, stdin and stdout on /dev/null,
  stderr into the job's folder, core dumps off, files capped; as root, namespaces of its own
  (mount: a file system of its own, an allow-list, with a private /tmp; pid: the reaper is its first process;
  network; IPC), control groups (memory over the tree, processes) and an unprivileged uid of
  its own, with a process limit; in every configuration a seccomp filter (`_refuse_escape_calls`)
  and Landlock (`_landlock_self`: read the allow-list, write its job folder only, no TCP, no
  abstract sockets or signals out), and HOME and TMPDIR of its own in its job folder; the
  working directory is a private copy of the submission's answer files. Its only other
  descriptor, a pipe to the reaper, carries one byte ("ready, no answer loaded yet") and is
  closed before any answer loads. It starts JAX's backend, caps
  its address space, and runs the answers, writing each result as data only: `<index>.npz`
  (blocks, read back without pickle) then `<index>.json` (problem, captured output, dtypes).

Running the answers: each is first traced once for all its draws under `vmap` (`_runner.
trace_batched`, twice, to catch answers that keep state), and the traced answers are compiled
together as one program; any answer that does not trace cleanly runs as `check` runs it
(`_runner.run`). Forking from the zygote saves each job JAX's import; compiling one program
instead of one per answer saves most of the rest (docs/performance.md).

The reaper's messages (`started`, `armed`, `ended`) and the zygote's (`ready`, `forked`,
`reaped`) go to the grader on the zygote's stdout, which no worker holds. The file `current` in
the job folder says what the worker is doing (a puzzle's index, or `batch` while the traced
answers are compiled and run): a claim the grader uses only to pick which stage of the job's
own it is on (`_sandbox._watch`). Everything the worker writes is read back by the grader as
hostile data (`_sandbox._read_result`).
"""

from __future__ import annotations

import fnmatch
import gc
import json
import os
import resource
import select
import signal
import sys
import time
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from checker.grading import _cgroups, _landlock

if TYPE_CHECKING:
    from checker.engine._runner import Run
    from checker.engine._sampling import Draw

READY = "ready"  # written once JAX is up and the memory limit is set, before any answer runs
CURRENT = "current"  # what the worker is on: "trace N" or "run N" (puzzle N), or BATCH
BATCH = "batch"
FILE_CAP = 256 * 1024 * 1024  # bytes any one file the worker (or an answer) may write
# Faster XLA compilation for the kit's small programs; tried first, dropped if this jaxlib lacks it.
BATCH_OPTIONS: dict[str, Any] = {"xla_cpu_use_fusion_emitters": False}
# Imported by the zygote: JAX and what it imports lazily to start its backend and compile, the
# kit, and what answer files commonly import.
PRELOAD = (
    "jax.numpy", "jax.extend.core", "jax.experimental.shard_map", "jax.experimental.jet", "jax.experimental.multihost_utils", "jax._src.checkify", "jaxlib.mlir.dialects.mhlo",
    "jaxlib.mlir.dialects.builtin", "jaxlib.mlir.extras.meta",
    "jax.nn", "jax.lax", "jax.scipy.special", "jax.scipy.linalg", "jax.numpy.linalg", "numpy.linalg",
    "jaxtyping", "einops", "optax", "checker.engine._integrity", "checker.engine._runner", "checker.engine._forms",
    "math", "itertools", "functools", "operator", "string", "typing", "collections", "dataclasses",
)
# XLA options that halve compile times of the kit's small programs without changing results.
WORKER_XLA_FLAGS = "--xla_cpu_use_fusion_emitters=false --xla_backend_optimization_level=0"
_CLONE_NEWNS = 0x00020000
_CLONE_NEWIPC = 0x08000000
_CLONE_NEWPID = 0x20000000
_CLONE_NEWNET = 0x40000000
_CLONE_NEWUSER = 0x10000000
_AF_NETLINK = 16
WORKER_FILES = 1024  # descriptors a worker may hold (RLIMIT_NOFILE)
_MS_NOSUID, _MS_NODEV, _MS_NOEXEC, _MS_BIND, _MS_REC, _MS_PRIVATE = 2, 4, 8, 4096, 16384, 1 << 18
_O_PATH = 0o10000000
TMP_SIZE = "64m"  # each private /tmp, /var/tmp, /dev/shm a worker gets
PRIVATE = ("/tmp", "/var/tmp", "/dev/shm")  # each a private, empty, size-capped tmpfs in a worker
# What the C library reads to count the cores, by which XLA sizes its thread pools: the only
# files of the machine a worker reads beyond its own /proc under Landlock (JAX starts without them).
CPU_FILES = ("/sys/devices/system/cpu/online", "/sys/devices/system/cpu/possible")
_PR_SET_PDEATHSIG = 1
_PR_SET_DUMPABLE = 4
_PR_SET_CHILD_SUBREAPER = 36
UNPRIVILEGED_PROBE = 619999  # the uid the zygote's probe drops to (no such user exists)
_ORPHAN_SCAN = 0.5  # seconds between the zygote's looks for orphans to kill


# ---------------------------------------------------------------------------------------------
# The zygote


def zygote(config_path: str) -> int:
    """Serve jobs from stdin until it closes; returns the exit status."""
    _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    _prctl(_PR_SET_CHILD_SUBREAPER, 1)
    _prctl(_PR_SET_DUMPABLE, 0)  # no process of its uid reads its memory, environment or descriptors
    config = json.loads(Path(config_path).read_text())
    import importlib

    for module in PRELOAD:  # once here, so no job pays for them (and a worker that runs as
        try:  # another user needs no access to where they are installed)
            importlib.import_module(module)
        except ImportError:
            pass

    if config.get("packs"):  # the packs' catalogs, as text: their folders (and answers) are never in view
        from checker.engine import _catalog

        _catalog.use_packs(texts=[(str(folder), str(text)) for folder, text in config["packs"]])
    draws = _load_draws(config)
    _load_variants(config)
    _faster_compilation()
    if os.geteuid() == 0 and sys.platform.startswith("linux"):
        config["view"] = _view(config)
    found = _probe(config)
    found.update(_probe_groups(config))
    found["landlock"] = _probe_landlock(config, enclosed=found.get("namespaces") == "")
    if found["landlock"]:
        config.pop("landlock", None)
    else:
        found["landlock_abi"] = config["landlock"]["abi"]
    found["seccomp"] = _try(_refuse_escape_calls_and_prove_it, "seccomp") if _seccomp() == "" else _seccomp()
    config["seccomp"] = found["seccomp"] == ""
    own_pid_ns = os.open("/proc/self/ns/pid", os.O_RDONLY) if found.get("namespaces") == "" else None
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
                job = json.loads(line)
                job["pidns"] = own_pid_ns is not None and _new_pid_namespace(own_pid_ns)
                pid = os.fork()
                if pid == 0:
                    _reaper(job, config, draws)  # never returns
                _send({"event": "forked", "id": job["id"], "reaper": pid})
                reapers[pid] = job["id"]
        _reap(reapers)
        if time.monotonic() - last_scan > _ORPHAN_SCAN:
            _kill_children(exclude=set(reapers))
            last_scan = time.monotonic()
    for pid in list(reapers):
        _kill(pid)
    _kill_tree()
    for job in reapers.values():
        _release_groups(job)
    _cgroups.remove(_GROUPS[0] if _GROUPS else None)
    return 0


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


def _probe(config: dict[str, Any]) -> dict[str, str]:
    """As root: whether a worker can be enclosed in namespaces of its own (mount, pid, network,
    IPC), and run as another user and still start JAX. Each answer is the empty string when it
    can, or the reason."""
    if os.geteuid() != 0 or not sys.platform.startswith("linux"):
        return {"namespaces": "the grader does not run as root", "user": "the grader does not run as root"}
    if os.environ.get("JACPUZZLES_NO_NAMESPACES"):  # as in a container that refuses them (tests, debugging)
        found = {"namespaces": "turned off by JACPUZZLES_NO_NAMESPACES"}
    else:
        found = {"namespaces": _try(lambda: _enclose(config, None, _probe_home(), pidns=False), "namespaces")}
    enclosed = found["namespaces"] == ""

    def as_another_user() -> None:  # start JAX's backend and compile, as a worker will
        import jax

        if enclosed:
            _enclose(config, None, _probe_home(), pidns=False)
        _become(UNPRIVILEGED_PROBE)
        jax.jit(lambda x: x * 2)(np.ones(3)).block_until_ready()

    found["user"] = _try(as_another_user, "user")
    return found


def _seccomp() -> str:
    """Load libseccomp here, in the zygote (its lookup runs `ldconfig`, which a worker's view
    may not have): "" when it loads, else why not."""
    if not sys.platform.startswith("linux"):
        return "not Linux"
    try:
        import pyseccomp  # noqa: F401
    except (ImportError, RuntimeError, OSError) as exc:
        return f"no libseccomp ({exc}): install libseccomp2"
    return ""


# System calls a worker never needs, each a way out of its confinement or into another
# process: refused by its seccomp filter with EPERM (`_refuse_escape_calls`).
REFUSED_CALLS = (
    "ptrace", "process_vm_readv", "process_vm_writev",  # another process's memory
    "keyctl", "add_key", "request_key",  # the kernel's key rings (the grader user's keys)
    "bpf", "perf_event_open", "userfaultfd",  # kernel attack surface
    "mount", "umount2", "pivot_root", "move_mount", "open_tree", "fsopen", "fsmount",
    "io_uring_setup", "io_uring_enter", "io_uring_register",  # io_uring opens sockets past a filter
)


def _refuse_escape_calls() -> None:
    """A seccomp filter for this process and all it starts. No new user namespace (`unshare`
    or `clone` with CLONE_NEWUSER fail with EPERM; `clone3`, whose flags a filter cannot read,
    fails with ENOSYS, and the C library falls back to `clone`): in a user namespace of its own
    a worker would hold every capability over a network namespace of its own, its loopback up,
    socket buffers that cgroup v1 does not charge to the job (red team 6). No socket of any
    family: no TCP or UDP to the grader's machine or beyond, no netlink (whose queued replies
    cgroup v1 does not charge either: red team 7 parked 5.4 GB in them), no unix socket to a
    service of the host (Landlock does not cover connecting to a named one); `socketpair`
    stays. And none of `REFUSED_CALLS`."""
    import errno

    import pyseccomp as seccomp

    rules = seccomp.SyscallFilter(seccomp.ALLOW)
    for call in ("unshare", "clone"):
        rules.add_rule(seccomp.ERRNO(errno.EPERM), call, seccomp.Arg(0, seccomp.MASKED_EQ, _CLONE_NEWUSER, _CLONE_NEWUSER))
    rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    rules.add_rule(seccomp.ERRNO(errno.EPERM), "socket")
    for call in REFUSED_CALLS:
        try:
            rules.add_rule(seccomp.ERRNO(errno.EPERM), call)
        except (RuntimeError, ValueError, OSError):  # a call this architecture or libseccomp does not know
            pass
    rules.load()


def _refuse_escape_calls_and_prove_it() -> None:
    """Load the filter (in the probe's child) and check that it refuses what it should."""
    import ctypes
    import socket

    _refuse_escape_calls()
    if _libc().unshare(_CLONE_NEWUSER | _CLONE_NEWNET) == 0 or ctypes.get_errno() != 1:
        raise OSError("the seccomp filter was loaded, yet unshare(CLONE_NEWUSER) did not fail with EPERM")
    for family, kind in ((_AF_NETLINK, socket.SOCK_RAW), (socket.AF_INET, socket.SOCK_STREAM), (socket.AF_UNIX, socket.SOCK_STREAM)):
        try:
            socket.socket(family, kind, 0).close()
        except PermissionError:
            continue
        raise OSError(f"the seccomp filter was loaded, yet a socket of family {family} opened")
    # Reading no bytes of its own memory needs no privilege: only the filter refuses it.
    if _libc().process_vm_readv(os.getpid(), None, 0, None, 0, 0) == 0 or ctypes.get_errno() != 1:
        raise OSError("the seccomp filter was loaded, yet process_vm_readv did not fail with EPERM")


def _probe_landlock(config: dict[str, Any], enclosed: bool) -> str:
    """Whether a worker can be confined by Landlock ("" when it can, else why not); when it can,
    `config["landlock"]` holds the ABI and the rules every worker applies."""
    version = _landlock.abi()
    if version < 1:
        if os.environ.get("JACPUZZLES_NO_LANDLOCK"):
            return "turned off by JACPUZZLES_NO_LANDLOCK"
        return "this kernel has no Landlock (Linux 5.13 or later, with Landlock enabled)"
    config["landlock"] = {"abi": version, "read": _landlock_reads(config, enclosed)}

    def refused_outside() -> None:
        _landlock_self(config, None, None, private=False)
        try:
            Path("config.json").read_bytes()  # the grader's, in its scratch folder
        except PermissionError:
            return
        raise OSError("Landlock was applied, yet the grader's config.json could still be read")

    return _try(refused_outside, "Landlock")


def _landlock_reads(config: dict[str, Any], enclosed: bool) -> list[tuple[str, int]]:
    """What every worker may read, as Landlock rules: the allow-list of its view (`_view`),
    without the withheld packages (outside namespaces, where they are still the real ones), the
    kit's reference answers and the grader's folders; the harmless devices, read and written."""
    view: dict[str, Any] = config.get("view") or _view(config)
    left_out = [*config.get("answers", []), *config.get("hidden", []), *view.get("hidden", [])]
    if not enclosed:
        left_out += view["withheld"]
    left_out = [os.path.realpath(p) for p in left_out]
    rules: list[tuple[str, int]] = []
    for root in view["binds"]:
        rules += _landlock.reading(root, left_out)
    rules += [(device, _landlock.READ_FILE | _landlock.WRITE_FILE) for device in view["devices"]]
    rules += [(path, _landlock.READ_FILE) for path in CPU_FILES if os.path.exists(path)]
    return rules


def _landlock_self(config: dict[str, Any], jobdir: Path | None, code: str | None, private: bool, own_proc: bool = False) -> None:
    """Confine this process (a worker) by Landlock: read the allow-list and its answers, write
    its job folder only (and `private`, in namespaces of its own: its private /tmp, /var/tmp and
    /dev/shm), read /proc only for itself (all of it when `own_proc`: the /proc of a pid
    namespace of its own); no TCP; no abstract unix socket nor signal out of its domain."""
    plan = config["landlock"]
    rules = _landlock.Ruleset(int(plan["abi"]))
    for path, rights in plan["read"]:
        rules.grant(str(path), int(rights))
    rules.grant("/proc" if own_proc else f"/proc/{os.getpid()}", _landlock.READ_FILE | _landlock.READ_DIR)
    if code is not None:
        rules.grant(code, _landlock.READ)
    if jobdir is not None:
        rules.grant_write(str(jobdir))
    if private:
        for folder in PRIVATE:
            rules.grant_write(folder)
    rules.restrict()


def _probe_home() -> str:
    home = Path.cwd() / "probe"
    home.mkdir(mode=0o711, exist_ok=True)
    return str(home)


def _try(action: Any, what: str) -> str:
    """Run `action` in a forked child: "" when it worked, else the reason it gave."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            action()
            os._exit(0)
        except BaseException as exc:  # noqa: BLE001 - the probe's answer
            os.write(write, f"{type(exc).__name__}: {exc}".encode()[:500])
            os._exit(1)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        said = pipe.read().decode("utf-8", "replace")
    _, status = os.waitpid(pid, 0)
    return "" if status == 0 else (said or f"the {what} probe exited with status {os.waitstatus_to_exitcode(status)}")


def _libc() -> Any:
    import ctypes

    return ctypes.CDLL(None, use_errno=True)


def _unshare(flags: int) -> None:
    import ctypes

    if _libc().unshare(flags) != 0:
        raise OSError(ctypes.get_errno(), f"unshare({flags:#x}) failed")


def _mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    import ctypes

    def enc(value: str | None) -> bytes | None:
        return value.encode() if value is not None else None

    if _libc().mount(enc(source), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data)) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"mount of {target} failed: {os.strerror(err)}")


def _new_pid_namespace(own: int) -> bool:
    """Make the zygote's next child the first process of a pid namespace of its own."""
    import ctypes

    libc = _libc()
    if libc.setns(own, _CLONE_NEWPID) != 0 or libc.unshare(_CLONE_NEWPID) != 0:
        os.write(2, f"no pid namespace for a job: {os.strerror(ctypes.get_errno())}\n".encode())
        return False
    return True


def _enclose(config: dict[str, Any], job: dict[str, Any] | None, home: str, pidns: bool) -> None:
    """Namespaces of its own for a worker (as root, before dropping to its uid): no network, no
    IPC with the host, and a file system of its own, built from an allow-list (`_view`).

    Its root is a new, small tmpfs holding only, each at its host path: Python and the installed
    packages (read-only, but the other autodiff frameworks' folders, replaced by an empty package
    that refuses to import), the kit's `checker` folder alone (read-only; its reference answers
    and recorded Jacobians emptied), /usr and the system's library folders (read-only), a few
    files of /etc, the harmless devices, a private, size-capped, empty /tmp, /var/tmp and
    /dev/shm, a /proc (in a pid namespace of its own: only its own processes), and the job's own
    folder (`home`: its copy of the answers and its results folder). The host's root is then
    detached (`pivot_root`): nothing else of the host can be reached by any path.
    """
    view: dict[str, Any] = config.get("view") or _view(config)
    _unshare(_CLONE_NEWNS | _CLONE_NEWNET | _CLONE_NEWIPC)
    _mount(None, "/", None, _MS_REC | _MS_PRIVATE)
    new = str(view["root"])
    _mount("tmpfs", new, "tmpfs", _MS_NOSUID | _MS_NODEV, "size=1m,mode=755")
    for folder in PRIVATE:  # first: what the view needs from under the host's /tmp goes inside
        os.makedirs(new + folder, exist_ok=True)
        _mount("tmpfs", new + folder, "tmpfs", _MS_NOSUID | _MS_NODEV, f"size={TMP_SIZE},mode=1777")
    for path in view["binds"]:
        _bind(path, new + path, readonly=True)
    for path, target in view["links"]:
        os.makedirs(os.path.dirname(new + path), exist_ok=True)
        os.symlink(target, new + path)
    for device in view["devices"]:
        _bind(device, new + device, readonly=False)
    for folder in view["withheld"]:  # another autodiff framework: a package that refuses to import
        target = new + folder
        if os.path.isdir(target):
            _mount("tmpfs", target, "tmpfs", _MS_NOSUID | _MS_NODEV | _MS_NOEXEC, "size=16k,mode=755")
            Path(target, "__init__.py").write_text(_WITHHELD_INIT.format(name=os.path.basename(folder)))
            _mount(None, target, None, _MS_REMOUNT | _MS_RDONLY | _MS_NOSUID | _MS_NODEV | _MS_NOEXEC)
        elif os.path.isfile(target):
            _mount("/dev/null", target, None, _MS_BIND)
    for folder in [*config.get("answers", []), *config.get("hidden", []), *view.get("hidden", [])]:
        target = new + folder  # the kit's reference answers, and any grader folder in the view
        if os.path.isdir(target) and not os.path.islink(target):
            _mount("tmpfs", target, "tmpfs", _MS_NOSUID | _MS_NODEV | _MS_NOEXEC, "size=16k,mode=755")
        elif os.path.isfile(target):  # expected results recorded on the default seed's draws
            _mount("/dev/null", target, None, _MS_BIND)
    os.makedirs(new + home, exist_ok=True)
    _mount(home, new + home, None, _MS_BIND | _MS_REC)
    os.makedirs(new + "/proc", exist_ok=True)
    _mount("proc", new + "/proc", "proc", _MS_NOSUID | _MS_NODEV | _MS_NOEXEC)
    os.makedirs(new + _OLD_ROOT)
    _pivot_root(new, new + _OLD_ROOT)
    os.chdir("/")
    if _libc().umount2(_OLD_ROOT.encode(), _MNT_DETACH) != 0:
        raise OSError("cannot detach the host's root from a worker's view")
    os.rmdir(_OLD_ROOT)


_OLD_ROOT = "/.host"
_MNT_DETACH = 2
_MS_RDONLY, _MS_REMOUNT = 1, 32
_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41, "riscv64": 41, "ppc64le": 203, "s390x": 217}  # syscall numbers
# Packages of other autodiff (or symbolic differentiation) frameworks, left out of a worker's view
# (fnmatch patterns over the names in each site-packages folder). JAX, numpy, scipy, ml_dtypes,
# opt_einsum stay: answers need them, and the kit's guards watch JAX's autodiff.
WITHHELD = (
    "tensorflow", "tensorflow_*", "tensorflow-*", "tf_keras", "keras", "tensorboard", "tensorboard_*",
    "torch", "torchgen", "functorch", "torchvision", "torchaudio", "autograd", "autograd_gamma",
    "mxnet", "paddle", "theano", "pytensor", "aesara", "chainer", "tangent", "mlx", "sympy",
    "isympy.py", "casadi", "numdifftools", "jittor", "oneflow", "cupy", "dynet",
)
_WITHHELD_INIT = (
    "raise ImportError('{name} is not available to answers: compute the Jacobian with jax.numpy "
    "yourself (other autodiff frameworks are not installed for grading)')\n"
)
# What a worker sees of the host's /, /etc and /dev (each only where it exists).
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC = ("ld.so.cache", "ld.so.conf", "localtime", "timezone", "passwd", "group", "nsswitch.conf", "host.conf", "hosts", "os-release")
DEVICES = ("null", "zero", "full", "random", "urandom")
DEVICE_LINKS = (("/dev/fd", "/proc/self/fd"), ("/dev/stdin", "/proc/self/fd/0"), ("/dev/stdout", "/proc/self/fd/1"), ("/dev/stderr", "/proc/self/fd/2"))


def _view(config: dict[str, Any]) -> dict[str, Any]:
    """What a worker's file system holds (worked out once, in the zygote): folders and files to
    bind read-only at their host paths, symbolic links to recreate, devices, withheld packages."""
    kit = os.path.realpath(str(config.get("kit", "")))
    binds: set[str] = set()
    links: list[tuple[str, str]] = []
    for path in [*SYSTEM, *(f"/etc/{name}" for name in ETC)]:
        if os.path.islink(path):
            links.append((path, os.readlink(path)))
            if path.startswith("/etc/"):  # /etc/localtime: its target too
                target = os.path.realpath(path)
                if os.path.exists(target):
                    binds.add(target)
        elif os.path.exists(path):
            binds.add(path)
    import site

    installed = {os.path.realpath(p) for p in [*site.getsitepackages(), site.getusersitepackages(), sys.prefix, sys.base_prefix, sys.exec_prefix]}
    for root in _runtime_roots(config):
        if root == kit and root not in installed:
            continue  # the kit's checkout (put on sys.path first): only its `checker` package below
        binds.add(root)
    if kit:
        binds.add(os.path.join(kit, "checker"))
    kept = sorted(binds)
    kept = [b for b in kept if not any(o != b and _under(b, o) for o in kept)]
    # A checkout inside a folder in view (under /usr, say): all of it but `checker` emptied.
    around = kit and kit not in installed and any(_under(kit, b) and b != kit for b in kept)
    hidden = [os.path.join(kit, n) for n in sorted(os.listdir(kit)) if n != "checker"] if around else []
    # JAX's differentiating code, replaced in memory by the worker's guards: its files too.
    from checker.engine import _integrity

    hidden += _integrity.withheld_sources()
    withheld = []
    for root in kept:
        for folder in [p for p in sys.path if p and _under(os.path.realpath(p), root) and os.path.isdir(p)]:
            for name in sorted(os.listdir(folder)):
                if not name.endswith((".dist-info", ".egg-info")) and any(fnmatch.fnmatchcase(name, w) for w in WITHHELD):
                    withheld.append(os.path.join(os.path.realpath(folder), name))
    devices = [f"/dev/{name}" for name in DEVICES if os.path.exists(f"/dev/{name}")]
    root = os.path.join(os.getcwd(), "view")
    os.makedirs(root, mode=0o700, exist_ok=True)
    return {"root": root, "binds": kept, "links": [*links, *DEVICE_LINKS], "devices": devices, "withheld": sorted(set(withheld)), "hidden": hidden}


def _bind(source: str, target: str, readonly: bool) -> None:
    """Bind `source` (a folder or a file) at `target` in the view being built."""
    if os.path.isdir(source):
        os.makedirs(target, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "a"):
            pass
    _mount(source, target, None, _MS_BIND | _MS_REC)
    if readonly:
        _mount(None, target, None, _MS_REMOUNT | _MS_BIND | _MS_RDONLY | _MS_NOSUID)


def _pivot_root(new: str, old: str) -> None:
    import ctypes
    import platform

    number = _PIVOT_ROOT.get(platform.machine())
    if number is None:
        raise OSError(f"pivot_root: unknown system call number on {platform.machine()}")
    if _libc().syscall(number, new.encode(), old.encode()) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"pivot_root failed: {os.strerror(err)}")


def _runtime_roots(config: dict[str, Any]) -> list[str]:
    """The folders a worker must read: Python's, the installed packages', the kit's."""
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.path.realpath(sys.executable)), str(config.get("kit", ""))}
    roots |= {p for p in sys.path if p and os.path.isdir(p)}
    return sorted(os.path.realpath(r) for r in roots if r and os.path.isdir(r))


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _become(uid: int) -> None:
    """Drop root for `uid` (and the group of the same number), with no supplementary groups."""
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)


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


# ---------------------------------------------------------------------------------------------
# Control groups: one per job, for a memory limit over its whole tree and a process limit (_cgroups)

MEMORY_ALLOWANCE_MB = 768  # what a worker's tree uses beyond the zygote's shared pages (JAX's backend, compiling)
_GROUPS: list[_cgroups.Groups] = []  # where this zygote's jobs get their groups, once probed


def _probe_groups(config: dict[str, Any]) -> dict[str, str]:
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


def _join_groups(job: str, config: dict[str, Any], groups: _cgroups.Groups, join: bool = True) -> dict[str, Path]:
    """Make the job's control groups, with its limits, and move this process (the reaper) in."""
    memory_mb = int(config["memory_mb"])
    folders = _cgroups.make(groups, job, (memory_mb + MEMORY_ALLOWANCE_MB) * 1024 * 1024 if memory_mb > 0 else 0, int(config.get("processes", 0)))
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


def _reaper(job: dict[str, Any], config: dict[str, Any], draws: dict[str, tuple[Draw, ...]]) -> None:
    """Fork the worker, wait for it, kill whatever it left, report; never returns."""
    try:
        _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        _prctl(_PR_SET_CHILD_SUBREAPER, 1)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        if _GROUPS:
            _join_groups(str(job["id"]), config, _GROUPS[0])
        armed, arm = os.pipe()
        worker = os.fork()
        if worker == 0:
            os.close(armed)
            job["arm"] = arm
            _worker(job, config, draws)  # never returns
        os.close(arm)
        # In a pid namespace the worker's pid means nothing outside it: the grader kills this
        # process instead, the namespace's first, which takes every other one with it.
        _send({"event": "started", "id": job["id"], "worker": None if job.get("pidns") else worker})
        # One byte before any answer is loaded, then the worker closes its end: what it does
        # afterwards cannot take back that it was ready, nor claim it later.
        if os.read(armed, 1) == b"r":
            _send({"event": "armed", "id": job["id"]})
        os.close(armed)
        _, status = os.waitpid(worker, 0)
        if job.get("pidns"):
            _kill_namespace()
        else:
            _kill_tree()
        _send({"event": "ended", "id": job["id"], "status": _returncode(status)})
    finally:
        os._exit(0)


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
    """SIGKILL every descendant: the children first; their orphans come back here, and so on."""
    for _ in range(1000):
        if not _kill_children(exclude=set()):
            break
        time.sleep(0.005)
    while True:
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0:
                break
        except ChildProcessError:
            break


def _kill_children(exclude: set[int]) -> bool:
    """SIGKILL this process's children (but `exclude`) and collect them; False when there were none."""
    me = str(os.getpid())
    found = False
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in exclude:
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        if stat[stat.rindex(")") + 2 :].split()[1] == me:  # field 4, after the command's name
            found = True
            _kill(int(entry))
            try:
                os.waitpid(int(entry), os.WNOHANG)
            except ChildProcessError:
                pass
    return found


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


# ---------------------------------------------------------------------------------------------
# The worker


def _worker(job: dict[str, Any], config: dict[str, Any], draws: dict[str, tuple[Draw, ...]]) -> None:
    """Run the job's answers; never returns (exit status 0 once every result is written)."""
    jobdir = Path(job["jobdir"])
    try:
        os.setsid()
        _isolate(job, config, jobdir)
        os.chdir(job["root"])
        _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)  # after the uid change, which clears it
        if os.getppid() == 1 and not job.get("pidns"):
            os._exit(1)
        _run_job(job, config, draws, jobdir)
    except BaseException:  # noqa: BLE001 - the kit's own failure, for the grader to report
        traceback.print_exc()
        sys.stderr.flush()
        os._exit(70)
    os._exit(0)  # no interpreter shutdown: threads an answer left behind can't hold it up


def _isolate(job: dict[str, Any], config: dict[str, Any], jobdir: Path) -> None:
    """Descriptors, limits, and (as root) namespaces of its own and an unprivileged uid."""
    uid = job.get("uid")
    null = os.open(os.devnull, os.O_RDWR)
    err = os.open(jobdir / "stderr", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.dup2(err, 2)
    os.dup2(int(job["arm"]), 3)
    os.closerange(4, _max_fd())
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_CAP, FILE_CAP))
    resource.setrlimit(resource.RLIMIT_NOFILE, (WORKER_FILES, WORKER_FILES))
    if job.get("enclose"):
        _enclose(config, job, str(job["home"]), bool(job.get("pidns")))
    if config.get("seccomp"):
        _refuse_escape_calls()
    if uid is not None:
        nproc = int(config.get("processes", 0))
        if nproc > 0:  # the uid is this job's alone: this counts the job's processes and threads
            resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
        _become(uid)
    _private_home(jobdir)
    if config.get("landlock"):
        enclosed = bool(job.get("enclose"))
        _landlock_self(config, jobdir, str(job["root"]), private=enclosed, own_proc=enclosed and bool(job.get("pidns")))


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


def _run_job(job: dict[str, Any], config: dict[str, Any], draws: dict[str, tuple[Draw, ...]], jobdir: Path) -> None:
    import jax.numpy as jnp

    from checker.engine import _integrity, _numerics, _runner

    timeout = float(config["timeout"])
    memory_mb = int(config["memory_mb"])
    items = [(int(i), name, path) for i, (name, path) in zip(job["indices"], job["puzzles"])]
    with _numerics.pinned():
        jnp.zeros(1).block_until_ready()  # the backend and its threads exist before the limit
        _limit_memory(memory_mb)
        _integrity.install_guards()
        sys.meta_path.append(_Missing())
        (jobdir / READY).write_text("")
        os.write(3, b"r")  # to the reaper, then to the grader: the worker is ready
        os.close(3)
        traced: dict[int, Any] = {}
        if job.get("batch", True):
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
    from checker.engine._settings import FAST_COMPILE

    options: dict[str, Any] = {**FAST_COMPILE}

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
        leaves = [np.asarray(leaf) for leaf in flat]
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


def _load_variants(config: dict[str, Any]) -> None:
    """Render the grader's variants (slot -> puzzle name and choices) into `_VARIANTS`."""
    from checker.engine import _variants

    for slot, (name, chosen) in dict(config.get("variants") or {}).items():
        _VARIANTS[slot] = _variants.variant(name, tuple((str(k), v) for k, v in chosen))


def _puzzle(slot: str) -> Any:
    """The concrete puzzle a job's slot runs answers against."""
    from checker.engine._catalog import puzzle_named

    return _VARIANTS[slot] if slot in _VARIANTS else puzzle_named(slot)


def _load_draws(config: dict[str, Any]) -> dict[str, tuple[Draw, ...]]:
    """The grader's draws, per puzzle, from its `.npz` and labels file (no pickle)."""
    from checker.engine._sampling import Draw

    labels: dict[str, list[str]] = json.loads(Path(config["labels"]).read_text())
    found: dict[str, tuple[Draw, ...]] = {}
    with np.load(config["draws"], allow_pickle=False) as arrays:
        for name, count in config["arity"].items():
            stacked = [arrays[f"{name}.{i}"] for i in range(int(count))] if labels[name] else []
            found[name] = tuple(Draw(label, tuple(a[k] for a in stacked)) for k, label in enumerate(labels[name]))
    return found


def _limit_memory(megabytes: int) -> None:
    """Cap the address space at what JAX already holds plus `megabytes` for student code.

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
        for j, (_, dtype) in enumerate(layout):
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
        problem = {"kind": p.kind.value, "message": _memory_message(p.message, memory_mb), "location": p.location, "draw": p.draw, "status": p.status.value}
    record = {"problem": problem, "output": run.output, "stacked": stacked, "draws": len(draws), "dtypes": dtypes}
    partial = out / f"{index}.json.partial"
    partial.write_text(json.dumps(record))
    os.replace(partial, out / f"{index}.json")


def _portable(array: np.ndarray) -> np.ndarray:
    """Numbers numpy saves without pickle: bfloat16 and float8 travel as float32 (exact)."""
    return array if array.dtype.kind in "biuf" else array.astype(np.float32)


def _memory_message(message: str, memory_mb: int) -> str:
    """Name the memory limit when the answer ran out of memory under it."""
    if memory_mb > 0 and "MemoryError" in message:
        return f"exceeded the {memory_mb} MB memory limit ({message})"
    return message


# ---------------------------------------------------------------------------------------------
# Shared


def _send(message: dict[str, Any]) -> None:
    """One line to the grader, in one write (atomic on a pipe below 4 KB)."""
    os.write(1, (json.dumps(message) + "\n").encode())


def _returncode(status: int) -> int:
    """A wait status as subprocess reports it: the exit code, or minus the signal."""
    return os.waitstatus_to_exitcode(status)


def _prctl(option: int, value: int) -> int:
    """Linux's prctl, best effort: 0 when it worked (other systems: -1, nothing done)."""
    if not sys.platform.startswith("linux"):
        return -1
    import ctypes

    try:
        return int(ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0))
    except (OSError, AttributeError):
        return -1


if __name__ == "__main__":
    os._exit(zygote(sys.argv[1]))
