"""The confinement of a worker on Linux: what it may see, call and touch.

As root, or as a plain user in the zygote's user namespace (`_linux.zygote_user_namespace`),
namespaces of its own (`enclose`: mount, over a file system built from an allow-list,
`plan_view`; network; IPC; UTS; pid, `new_pid_namespace`); as root, an unprivileged uid
(`become`); in every configuration every capability given up (`_linux.drop_capabilities`), a seccomp
filter (`refuse_escape_calls`) and Landlock (`landlock_self`, over the rules `landlock_reads`
works out; `_landlock` is the system-call layer). The zygote probes once what this machine
allows (`probe`, `probe_landlock`, `seccomp_available`), each answer "" when it can, else why not.
"""

from __future__ import annotations

import fnmatch
import os
import sys
import sysconfig
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from checker.grading import _landlock, _linux
from checker.grading._linux import (
    AF_NETLINK,
    CLONE_FILES,
    CLONE_NEWIPC,
    CLONE_NEWNET,
    CLONE_NEWNS,
    CLONE_NEWPID,
    CLONE_NEWUSER,
    CLONE_NEWUTS,
    CLONE_THREAD,
    CLOSE_RANGE_UNSHARE,
    MNT_DETACH,
    MS_BIND,
    MS_NODEV,
    MS_NOEXEC,
    MS_NOSUID,
    MS_PRIVATE,
    MS_RDONLY,
    MS_REC,
    MS_REMOUNT,
    PR_SET_PDEATHSIG,
    capabilities,
    libc,
    mount,
    pivot_root,
    prctl,
    unshare,
)
from checker.grading._messages import Config

TMP_SIZE = "64m"  # each private /tmp, /var/tmp, /dev/shm a worker gets
PRIVATE = ("/tmp", "/var/tmp", "/dev/shm")  # each a private, empty, size-capped tmpfs in a worker
# What the C library reads to count the cores, by which XLA sizes its thread pools: the only
# files of the machine a worker reads beyond its own /proc under Landlock (JAX starts without them).
CPU_FILES = ("/sys/devices/system/cpu/online", "/sys/devices/system/cpu/possible")
UNPRIVILEGED_PROBE = 619999  # the uid the zygote's probe drops to (no such user exists)
# fcntl's commands a worker may not use: resize a pipe, take a lease, watch a folder (dnotify),
# set a record lock (POSIX and open file description ones, waiting or not).
F_SETPIPE_SZ, F_SETLEASE, F_NOTIFY, F_SETLK, F_SETLKW, F_OFD_SETLK, F_OFD_SETLKW = 1031, 1024, 1026, 6, 7, 37, 38
FCNTL_REFUSED = (F_SETPIPE_SZ, F_SETLEASE, F_NOTIFY, F_SETLK, F_SETLKW, F_OFD_SETLK, F_OFD_SETLKW)
PROBE_TASKS = 8  # the task limit `prove_own_task_count` sets, and then meets

# System calls a worker never needs, each a way out of its confinement or into another
# process: refused by its seccomp filter with EPERM (`refuse_escape_calls`).
REFUSED_CALLS = (
    "ptrace", "process_vm_readv", "process_vm_writev",  # another process's memory
    "keyctl", "add_key", "request_key",  # the kernel's key rings (the grader user's keys)
    "bpf", "perf_event_open", "userfaultfd",  # kernel attack surface
    "mount", "umount2", "pivot_root", "move_mount", "open_tree", "fsopen", "fsmount",  # mounts, old and new API
    "fsconfig", "fspick", "mount_setattr", "unshare", "setns",  # (a worker gets its namespaces before the filter)
    # Watching files: Landlock covers neither. A worker watched the grader make the next job's
    # folder and write OUT; as root, fanotify's permission events made the grader's opens fail or hang.
    "fanotify_init", "fanotify_mark", "inotify_init", "inotify_init1", "inotify_add_watch",
    # What only root's capabilities allow (given up too, `_linux.drop_capabilities`): refused twice.
    "reboot", "acct", "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
    "swapon", "swapoff", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex", "iopl", "ioperm",
    "open_by_handle_at", "name_to_handle_at", "quotactl", "syslog", "vhangup",
    "io_uring_setup", "io_uring_enter", "io_uring_register",  # io_uring opens sockets past a filter
    # Landlock covers no file's mode, owner or extended attributes: a worker that runs as root
    # (a container, no uid of its own) could make the grader's key or site-packages writable
    # by all, give them away, or set a file capability on a program of the machine.
    "chmod", "fchmod", "fchmodat", "fchmodat2", "chown", "fchown", "lchown", "fchownat",
    "setxattr", "lsetxattr", "fsetxattr", "removexattr", "lremovexattr", "fremovexattr",
    # Nor times: a worker running as root owns /dev/null and the grader's files (the red team
    # set the host's /dev/null to 2009 through its stdin).
    "utime", "utimes", "futimesat", "utimensat",
    # System V IPC and POSIX message queues: Landlock covers neither, and outside an IPC namespace
    # of its own a worker would reach a local service's segments and queues (as root, any of
    # them), and memory it leaves in a segment outlives it and the grader, past every limit.
    "shmget", "shmat", "shmdt", "shmctl", "msgget", "msgsnd", "msgrcv", "msgctl",
    "semget", "semop", "semtimedop", "semctl",
    "mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_notify", "mq_getsetattr",
    # Another process's file descriptors or memory advice (a same-user process it may trace).
    "pidfd_getfd", "process_madvise", "quotactl_fd",
    # Nor a handle on another process: without a pid namespace, `pidfd_open` of each number told
    # which pids live on the machine, and `poll` on it when each ended (red team, round 15).
    "pidfd_open",
    # Memory no per-process limit counts: a memfd's pages are the kernel's until mapped (with
    # socket buffers, red team RT8 held a container at its limit, and its memory killer took the
    # classmates' workers, whose mapped memory is what it weighs).
    "memfd_create",
    # Nor a page vmsplice pins in a pipe: one byte of a huge page held each whole 2 MB page after
    # the worker unmapped it (red team RT10: 3 GB held by a worker of 151 MB). Nor secret memory,
    # mapped in windows and unmapped again (RT16: 1.5 GB held by a worker of 145 MB resident).
    "vmsplice", "memfd_secret",
    # Linux's asynchronous I/O: `fs.aio-max-nr` is one quota for the whole machine, which one
    # `io_setup(65536)` took, from a container too (RT16). Nor `sync` of every file system.
    "io_setup", "io_destroy", "io_submit", "io_cancel", "io_getevents", "io_pgetevents", "sync", "syncfs",
)
# Refused once the worker has made its own Landlock domain (`refuse_landlock`): rules it adds to
# rulesets of its own are kernel memory no limit counts (RT16: 2 million rules, 144 MB).
LANDLOCK_CALLS = ("landlock_create_ruleset", "landlock_add_rule", "landlock_restrict_self")
# Calls added to Linux since 5.1 have one number on every architecture. A libseccomp older than a
# call cannot name it, so these are refused by number there (Debian 12's knows none past 6.1).
UNIFIED_NUMBERS = {
    "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427, "open_tree": 428, "move_mount": 429,
    "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433, "pidfd_open": 434, "pidfd_getfd": 438,
    "process_madvise": 440, "landlock_create_ruleset": 444, "landlock_add_rule": 445, "landlock_restrict_self": 446,
    "memfd_secret": 447, "mount_setattr": 442, "quotactl_fd": 443, "fchmodat2": 452,
}
# Calls newer than every call this filter judges (Linux 6.13's setxattrat, getxattrat,
# listxattrat and removexattrat, 6.15's open_tree_attr, 6.17's file_getattr and file_setattr, and
# whatever comes next) fail with ENOSYS, as on a kernel without them: the setxattrat of an ACL is
# a chmod, and the C library falls back to the older call, which the filter judges. Up to 6.10's
# mseal (462), which seals only the caller's own memory, every call is known.
NEWEST_JUDGED = 462
UNKNOWN_CALLS = range(NEWEST_JUDGED + 1, 512)
# Calls that act on the process (or thread) their first argument names: refused unless it names
# the worker itself (0, or its pid). As the grader's user, or as root, a worker reniced the grader
# and others through sched_setattr (`refuse_escape_calls`).
OWN_PROCESS_CALLS = ("sched_setattr", "sched_setscheduler", "sched_setparam", "sched_setaffinity")

# The secure bits (`lock_secure_bits`), from linux/prctl.h and securebits.h.
PR_SET_SECUREBITS, PR_GET_SECUREBITS = 28, 27
CAP_SETPCAP = 8
# NOROOT, NO_SETUID_FIXUP and NO_CAP_AMBIENT_RAISE, each locked; KEEP_CAPS off and locked: an exec
# as uid 0 gains no capability, and no uid change keeps any.
SECURE_BITS = 0b11101111


_OLD_ROOT = "/.host"
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
ETC = ("ld.so.cache", "ld.so.conf", "localtime", "timezone", "passwd", "group", "nsswitch.conf", "host.conf", "hosts",
       "os-release")
DEVICES = ("null", "zero", "full", "random", "urandom")
DEVICE_LINKS = (("/dev/fd", "/proc/self/fd"), ("/dev/stdin", "/proc/self/fd/0"), ("/dev/stdout", "/proc/self/fd/1"),
                ("/dev/stderr", "/proc/self/fd/2"))


@dataclass(frozen=True)
class View:
    """A worker's file system (`plan_view`), each path at its host path."""

    root: str  # the folder its new root is built in
    binds: tuple[str, ...]  # folders and files bound read-only
    links: tuple[tuple[str, str], ...]  # (path, target) of the symbolic links recreated
    devices: tuple[str, ...]  # devices bound read-write
    withheld: tuple[str, ...]  # other autodiff frameworks' packages, replaced by one that refuses to import
    hidden: tuple[str, ...]  # folders and files emptied (the kit's checkout around `checker`, JAX's autodiff)


@dataclass(frozen=True)
class LandlockPlan:
    """The Landlock ABI and the read rules every worker applies (`landlock_self`)."""

    abi: int
    read: tuple[tuple[str, int], ...]  # (path, rights)


@dataclass(frozen=True)
class Confinement:
    """What the zygote found a worker can be confined by, for every job."""

    view: View | None  # as root: the file system of its namespaces
    landlock: LandlockPlan | None  # None where the kernel has no Landlock
    seccomp: bool  # the seccomp filter loads and refuses what it should
    counted: bool = False  # as a plain user in namespaces: each worker's own tasks counted (`prove_own_task_count`)


def probe(config: Config, view: View | None, user_namespace: str) -> dict[str, str]:
    """As root, or as a plain user in a user namespace of its own (`user_namespace` "": the
    zygote's, mapping its uid only): whether a worker can be enclosed in namespaces of its own
    (mount, pid, network, IPC, UTS); as root, whether it can also run as another user and still
    start JAX. Each answer is the empty string when it can, or the reason."""
    not_root = "the grader does not run as root"
    if not sys.platform.startswith("linux"):
        return {"namespaces": "not Linux", "user": not_root if os.geteuid() != 0 else "not Linux"}
    if _linux.switched_off("JACPUZZLES_NO_NAMESPACES"):  # as in a container that refuses them (tests, debugging)
        found = {"namespaces": "turned off by JACPUZZLES_NO_NAMESPACES"}
    elif os.geteuid() != 0 and user_namespace:
        return {"namespaces": f"{not_root}, and has no user namespace of its own: {user_namespace}", "user": not_root}
    else:
        def enclosed_as_a_job() -> None:  # in a pid namespace of its own: its /proc is mounted
            new_pid_namespace(strict=True)
            enclose(config, view or plan_view(config), _probe_home())

        found = {"namespaces": try_in_child(enclosed_as_a_job, "namespaces")}
    enclosed = found["namespaces"] == ""
    if os.geteuid() != 0:  # a user namespace maps the grader's uid alone: no other to drop to
        found["user"] = (f"{not_root}, and its user namespace maps its own uid only" if user_namespace == ""
                         else not_root)
        if enclosed:
            def counted_as_a_job() -> None:
                new_pid_namespace(strict=True)
                enclose(config, view or plan_view(config), _probe_home())
                prove_own_task_count()

            found["counted"] = try_in_child(counted_as_a_job, "task count")
        return found

    def as_another_user() -> None:  # start JAX's backend and compile, as a worker will
        import jax

        if enclosed:
            enclose(config, view or plan_view(config), _probe_home())
        become(UNPRIVILEGED_PROBE)
        jax.jit(lambda x: x * 2)(np.ones(3)).block_until_ready()
        # What the zygote did not preload must still import: the other uid reads Python's own
        # folders (not so for a Python under a 0700 /root, without a mount namespace to show it).
        for kind in ("stdlib", "purelib"):
            os.listdir(sysconfig.get_paths()[kind])

    found["user"] = try_in_child(as_another_user, "user")
    return found


def prove_own_task_count() -> None:
    """`_linux.count_own_tasks` with a small limit, then proof that it counts this process's
    own tasks only: some threads start, and past the limit none does."""
    import threading

    _linux.count_own_tasks(PROBE_TASKS)
    done = threading.Event()
    started = 0
    try:
        for _ in range(2 * PROBE_TASKS):
            threading.Thread(target=done.wait, daemon=True).start()
            started += 1
    except RuntimeError:  # "can't start new thread": the limit
        pass
    finally:
        done.set()
    if not PROBE_TASKS // 2 <= started <= PROBE_TASKS:
        raise OSError(f"with RLIMIT_NPROC {PROBE_TASKS} in a user namespace of its own, {started} threads started "
                      f"(expected {PROBE_TASKS // 2} to {PROBE_TASKS})")


def seccomp_available() -> str:
    """Load libseccomp here, in the zygote (its lookup runs `ldconfig`, which a worker's view
    may not have): "" when it loads, else why not."""
    if not sys.platform.startswith("linux"):
        return "not Linux"
    try:
        import pyseccomp  # noqa: F401
    except (ImportError, RuntimeError, OSError) as exc:
        return f"no libseccomp ({exc}): install libseccomp2"
    return ""

def refuse_escape_calls(processes: bool = True) -> None:
    """A seccomp filter for this process and all it starts. With `processes` False (a job with
    no process limit of its own: no control group, no uid of its own), no new process either:
    `fork`, `vfork` and a `clone` that makes no thread fail with EPERM, so that a fork bomb
    cannot fill the machine's (or the container's) process table for its classmates, nor a
    chain of processes outlive the job; threads are still made (JAX's own). No new namespace
    (`unshare` and `setns` fail with EPERM, `clone` with CLONE_NEWUSER too; `clone3`, whose flags
    a filter cannot read, fails with ENOSYS, and the C library falls back to `clone`): in a user
    namespace of its own a worker would hold every capability over a network namespace of its
    own, its loopback up, socket buffers that cgroup v1 does not charge to the job. No thread
    with a descriptor table of its own (a `clone` with CLONE_THREAD and without CLONE_FILES, a
    `close_range` with CLOSE_RANGE_UNSHARE). No socket of
    any family: no TCP or UDP to the grader's machine or beyond, no netlink (whose queued replies
    cgroup v1 does not charge either), no unix socket to a service of the host (Landlock does not
    cover connecting to a named one), and no `socketpair` (the buffers of its queued bytes are
    kernel memory no per-process limit counts: 3 GB held by one worker, red team, round 8). No
    `prlimit`, `setpriority` or `ioprio_set` of another process, none of `OWN_PROCESS_CALLS` on a
    pid but 0 or its own (a thread's own id is refused too: XLA does not set its threads'
    affinity). And none of `REFUSED_CALLS`, nor a
    call newer than the filter knows (`UNKNOWN_CALLS`, ENOSYS)."""
    import errno

    import pyseccomp as seccomp

    rules = seccomp.SyscallFilter(seccomp.ALLOW)
    rules.add_rule(seccomp.ERRNO(errno.EPERM), "clone", seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER))
    rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    # A thread shares its process's descriptor table: one made without CLONE_FILES would have a
    # table, and a descriptor limit, of its own (red team RT18: 30 such threads held 3840
    # descriptors, their user's whole pipe quota, and files unlinked and held open).
    rules.add_rule(seccomp.ERRNO(errno.EPERM), "clone",
                   seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_THREAD | CLONE_FILES, CLONE_THREAD))
    # Nor later: `close_range` with CLOSE_RANGE_UNSHARE gives the calling thread a table of its
    # own (red team RT20: 30 threads, 62 pipes each).
    rules.add_rule(seccomp.ERRNO(errno.EPERM), "close_range",
                   seccomp.Arg(2, seccomp.MASKED_EQ, CLOSE_RANGE_UNSHARE, CLOSE_RANGE_UNSHARE))
    if not processes:
        rules.add_rule(seccomp.ERRNO(errno.EPERM), "clone", seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_THREAD, 0))
        for call in ("fork", "vfork"):
            try:
                rules.add_rule(seccomp.ERRNO(errno.EPERM), call)
            except (RuntimeError, ValueError, OSError):  # an architecture without them (arm64): clone only
                pass
    rules.add_rule(seccomp.ERRNO(errno.EPERM), "socket")
    rules.add_rule(seccomp.ERRNO(errno.EPERM), "socketpair")
    # No pipe grown past its 64 KB: pipe buffers are counted per user (not per user namespace)
    # against fs.pipe-user-pages-soft, 64 MB, which one worker filled with 63 pipes of 1 MB, leaving
    # every other process of its user 4 KB pipes (red team, round 13). Its 1024 descriptors hold
    # at most 512 pipes of 64 KB: half the quota.
    # Nor a lease (as uid 0, a write lease on a root-owned file it may read made every process of
    # the host that opened it wait: red team, round 15), a directory notification (dnotify, as
    # inotify), or a file lock: POSIX record locks are kernel memory no limit counts (1.8 million
    # of them, 350 MB: round 15), and a worker has no file to share.
    for command in FCNTL_REFUSED:
        rules.add_rule(seccomp.ERRNO(errno.EPERM), "fcntl", seccomp.Arg(1, seccomp.EQ, command))
    rules.add_rule(seccomp.ERRNO(errno.EPERM), "flock")
    # Limits and priorities of other processes: as the grader's own user, prlimit(RLIMIT_CPU) of
    # the grader or a classmate's worker would kill it (Landlock does not cover these calls).
    rules.add_rule(seccomp.ERRNO(errno.EPERM), "prlimit64", seccomp.Arg(0, seccomp.NE, 0))
    # setpriority and ioprio_set: only the calling process (PRIO_USER with 0 is every process of its uid).
    rules.add_rule(seccomp.ERRNO(errno.EPERM), "setpriority", seccomp.Arg(1, seccomp.NE, 0))
    rules.add_rule(seccomp.ERRNO(errno.EPERM), "setpriority", seccomp.Arg(0, seccomp.NE, 0))  # PRIO_PROCESS
    rules.add_rule(seccomp.ERRNO(errno.EPERM), "ioprio_set", seccomp.Arg(1, seccomp.NE, 0))
    rules.add_rule(seccomp.ERRNO(errno.EPERM), "ioprio_set", seccomp.Arg(0, seccomp.NE, 1))  # IOPRIO_WHO_PROCESS
    # Scheduling: only 0 or its own pid. A rule compares an argument once, so "neither 0 nor pid"
    # is "above pid" or one of the aligned blocks covering 1..pid-1.
    own = os.getpid()
    for call in OWN_PROCESS_CALLS:
        rules.add_rule(seccomp.ERRNO(errno.EPERM), call, seccomp.Arg(0, seccomp.GT, own))
        for mask, value in _aligned_blocks(1, own - 1):
            rules.add_rule(seccomp.ERRNO(errno.EPERM), call, seccomp.Arg(0, seccomp.MASKED_EQ, mask, value))
    for call in REFUSED_CALLS:
        try:
            rules.add_rule(seccomp.ERRNO(errno.EPERM), call)
        except (RuntimeError, ValueError, OSError):  # a call this architecture or libseccomp does not know
            if call in UNIFIED_NUMBERS:
                rules.add_rule(seccomp.ERRNO(errno.EPERM), UNIFIED_NUMBERS[call])
    for number in UNKNOWN_CALLS:
        rules.add_rule(seccomp.ERRNO(errno.ENOSYS), number)
    rules.load()


def refuse_landlock() -> None:
    """A second seccomp filter, loaded after the worker's own Landlock domain (which needs the
    calls): no Landlock call from here on (`LANDLOCK_CALLS`)."""
    import errno

    import pyseccomp as seccomp

    rules = seccomp.SyscallFilter(seccomp.ALLOW)
    for call in LANDLOCK_CALLS:
        try:
            rules.add_rule(seccomp.ERRNO(errno.EPERM), call)
        except (RuntimeError, ValueError, OSError):  # a libseccomp older than the call
            rules.add_rule(seccomp.ERRNO(errno.EPERM), UNIFIED_NUMBERS[call])
    rules.load()


def _aligned_blocks(low: int, high: int) -> list[tuple[int, int]]:
    """(mask, value) pairs, over 64-bit values, whose matches are exactly `low`..`high`."""
    blocks = []
    while low <= high:
        size = low & -low if low else 1 << 63
        while size > high - low + 1:
            size //= 2
        blocks.append(((~(size - 1)) & (2**64 - 1), low))
        low += size
    return blocks


def refuse_escape_calls_and_prove_it() -> None:
    """Load the filter (in the probe's child) and check that it refuses what it should."""
    import ctypes
    import errno
    import socket

    refuse_escape_calls()
    if libc().unshare(CLONE_NEWUSER | CLONE_NEWNET) == 0 or ctypes.get_errno() != 1:
        raise OSError("the seccomp filter was loaded, yet unshare(CLONE_NEWUSER) did not fail with EPERM")
    for family, kind in ((AF_NETLINK, socket.SOCK_RAW), (socket.AF_INET, socket.SOCK_STREAM),
                         (socket.AF_UNIX, socket.SOCK_STREAM)):
        try:
            socket.socket(family, kind, 0).close()
        except PermissionError:
            continue
        raise OSError(f"the seccomp filter was loaded, yet a socket of family {family} opened")
    try:
        for end in socket.socketpair():
            end.close()
    except PermissionError:
        pass
    else:
        raise OSError("the seccomp filter was loaded, yet socketpair() made a pair")
    import resource

    try:  # the zygote is of the same user: only the filter refuses this
        resource.prlimit(os.getppid(), resource.RLIMIT_NOFILE)
    except PermissionError:
        pass
    else:
        raise OSError("the seccomp filter was loaded, yet prlimit of another process did not fail with EPERM")
    # Reading no bytes of its own memory needs no privilege: only the filter refuses it.
    if libc().process_vm_readv(os.getpid(), None, 0, None, 0, 0) == 0 or ctypes.get_errno() != 1:
        raise OSError("the seccomp filter was loaded, yet process_vm_readv did not fail with EPERM")
    try:  # its own folder, to the mode it has: only the filter refuses this
        os.chmod(".", os.stat(".").st_mode & 0o7777)
    except PermissionError:
        pass
    else:
        raise OSError("the seccomp filter was loaded, yet chmod did not fail with EPERM")
    c = libc()
    # Each refused whatever the process's privileges (arguments that would do nothing if allowed:
    # reboot without its magic numbers, acct of no file; numbers of the calls the C library does not wrap, x86-64's).
    calls: tuple[tuple[str, Callable[[], int]], ...] = (
        ("fanotify_init", lambda: c.fanotify_init(0, 0)), ("inotify_init1", lambda: c.inotify_init1(0)),
        ("reboot", lambda: c.syscall(169, 0, 0, 0, 0)), ("acct", lambda: c.acct(b"")),
        ("setns", lambda: c.setns(-1, 0)),
        ("unshare", lambda: c.unshare(0)), ("fsopen", lambda: c.syscall(430, None, 0)),
        ("fsconfig", lambda: c.syscall(431, -1, 0, None, None, 0)),
        ("mount_setattr", lambda: c.syscall(442, -1, None, 0, None, 0)),
        ("utimensat", lambda: c.syscall(280, -1, None, None, 0)),
        ("sched_setattr of another process", lambda: c.syscall(314, os.getppid(), None, 0)),
        ("shmget", lambda: c.shmget(0, 4096, 0o600)), ("msgget", lambda: c.msgget(0, 0o600)),
    )
    for name, call in calls:
        if name in ("reboot", "fsopen", "fsconfig", "mount_setattr", "utimensat",
                    "sched_setattr of another process") and not _x86_64():
            continue
        if call() != -1 or ctypes.get_errno() != 1:
            raise OSError(f"the seccomp filter was loaded, yet {name} did not fail with EPERM")
    # setxattrat (463; an ACL set through it is a chmod): ENOSYS whether or not the kernel has it.
    if c.syscall(463, -1, None, 0, None, None, 0) != -1 or ctypes.get_errno() != errno.ENOSYS:
        raise OSError("the seccomp filter was loaded, yet setxattrat did not fail with ENOSYS")
    try:
        os.sched_setaffinity(os.getppid(), os.sched_getaffinity(0))
    except PermissionError:
        pass
    else:
        raise OSError("the seccomp filter was loaded, yet sched_setaffinity of another process did not fail with EPERM")
    os.sched_setaffinity(0, os.sched_getaffinity(0))  # its own: allowed
    os.sched_setaffinity(os.getpid(), os.sched_getaffinity(0))


def _x86_64() -> bool:
    import platform

    return platform.machine() == "x86_64"


def lock_secure_bits() -> None:
    """Where this process holds CAP_SETPCAP (a worker running as uid 0, or in a user namespace of
    its own): lock the secure bits NOROOT, NO_SETUID_FIXUP and NO_CAP_AMBIENT_RAISE (KEEP_CAPS
    off), so that no exec as uid 0 gains a capability back (`_linux.drop_capabilities` then gives
    up those it holds). Elsewhere there is nothing to lock: it holds none, and no_new_privs
    keeps it so."""
    import ctypes

    if not capabilities("CapEff") >> CAP_SETPCAP & 1:
        return
    if libc().prctl(PR_SET_SECUREBITS, SECURE_BITS, 0, 0, 0) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"cannot lock the secure bits: {os.strerror(err)}")


def drop_capabilities_and_prove_it() -> None:
    """Give up every capability (in the probe's child, as a worker does: `lock_secure_bits`, then
    `_linux.drop_bounding_set` and `_linux.drop_capabilities`) and check: CapEff 0 in
    /proc/self/status and, where it held CAP_SETPCAP, an empty bounding set and the secure bits
    locked."""
    from checker.grading import _linux

    privileged = bool(capabilities("CapEff") >> CAP_SETPCAP & 1)
    lock_secure_bits()
    _linux.drop_bounding_set()
    _linux.drop_capabilities()
    if capabilities("CapEff") != 0:
        raise OSError("capabilities were dropped, yet CapEff is not 0")
    if privileged and (capabilities("CapBnd") != 0 or libc().prctl(PR_GET_SECUREBITS, 0, 0, 0, 0) != SECURE_BITS):
        raise OSError("capabilities were dropped, yet the bounding set is not empty or the secure bits not locked")




def probe_landlock(config: Config, view: View | None, enclosed: bool) -> tuple[str, LandlockPlan | None]:
    """Whether a worker can be confined by Landlock ("" when it can, else why not), and the ABI
    and rules every worker applies (None when there is no Landlock)."""
    version = _landlock.abi()
    if version < 1:
        if _linux.switched_off("JACPUZZLES_NO_LANDLOCK"):
            return "turned off by JACPUZZLES_NO_LANDLOCK", None
        return "this kernel has no Landlock (Linux 5.13 or later, with Landlock enabled)", None
    plan = LandlockPlan(version, tuple(landlock_reads(config, view or plan_view(config), enclosed)))

    def refused_outside() -> None:
        landlock_self(plan, None, None, private=False)
        try:
            Path("config.json").read_bytes()  # the grader's, in its scratch folder
        except PermissionError:
            return
        raise OSError("Landlock was applied, yet the grader's config.json could still be read")

    return try_in_child(refused_outside, "Landlock"), plan


def landlock_reads(config: Config, view: View, enclosed: bool) -> list[tuple[str, int]]:
    """What every worker may read, as Landlock rules: the allow-list of its view (`plan_view`),
    without the withheld packages (outside namespaces, where they are still the real ones), the
    kit's reference answers and the grader's folders; the harmless devices, read and written."""
    left_out = [*config.answers, *config.hidden, *view.hidden]
    if not enclosed:
        left_out += view.withheld
    left_out = [os.path.realpath(p) for p in left_out]
    rules: list[tuple[str, int]] = []
    for root in view.binds:
        rules += _landlock.reading(root, left_out)
    rules += [(device, _landlock.READ_FILE | _landlock.WRITE_FILE) for device in view.devices]
    rules += [(path, _landlock.READ_FILE) for path in CPU_FILES if os.path.exists(path)]
    return rules


def landlock_self(plan: LandlockPlan, jobdir: Path | None, code: str | None, private: bool,
                  own_proc: bool = False) -> None:
    """Confine this process (a worker) by Landlock: read the allow-list and its answers, write
    its job folder only (and `private`, in namespaces of its own: its private /tmp, /var/tmp and
    /dev/shm), read /proc only for itself (all of it when `own_proc`: the /proc of a pid
    namespace of its own); no TCP; no abstract unix socket nor signal out of its domain."""
    rules = _landlock.Ruleset(plan.abi)
    for path, rights in plan.read:
        rules.grant(path, rights)
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


def try_in_child(action: Callable[[], None], what: str) -> str:
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



def new_pid_namespace(*, strict: bool = False) -> bool:
    """In a child of the zygote: make a pid namespace of the job's own and fork its first process,
    in which this returns True. This process stays outside: it waits for that one and exits with
    its status (killing it, as the grader does to end a job, kills the namespace's first process
    by its parent-death signal, and so the whole namespace). False, nothing made, where the
    kernel refuses, or the kernel's refusal raised where `strict` (the start-up probe names it).
    (The zygote cannot make it itself: going back to its own pid namespace after each one,
    `setns`, needs CAP_SYS_ADMIN over the host's, which a user namespace lacks.)"""
    import signal

    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    try:
        unshare(CLONE_NEWPID)
    except OSError as exc:
        if strict:
            raise
        os.write(2, f"no pid namespace for a job: {exc}\n".encode())
        return False
    first = os.fork()
    if first == 0:
        return True
    while True:
        try:
            _, status = os.waitpid(first, 0)
            break
        except InterruptedError:
            continue
    code = os.waitstatus_to_exitcode(status)
    os._exit(code if code >= 0 else 128 - code)


def enclose(config: Config, view: View, home: str) -> None:
    """Namespaces of its own for a worker (as root, before dropping to its uid): no network, no
    IPC with the host, and a file system of its own, built from an allow-list (`plan_view`).

    Its root is a new, small tmpfs holding only, each at its host path: Python and the installed
    packages (read-only, but the other autodiff frameworks' folders, replaced by an empty package
    that refuses to import), the kit's `checker` folder alone (read-only; its reference answers
    and recorded Jacobians emptied), /usr and the system's library folders (read-only), a few
    files of /etc, the harmless devices, a private, size-capped, empty /tmp, /var/tmp and
    /dev/shm, a /proc (in a pid namespace of its own: only its own processes), and the job's own
    folder (`home`: its copy of the answers and its results folder). The host's root is then
    detached (`pivot_root`): nothing else of the host can be reached by any path.
    """
    unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS)
    mount(None, "/", None, MS_REC | MS_PRIVATE)
    new = view.root
    mount("tmpfs", new, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=755")
    for folder in PRIVATE:  # first: what the view needs from under the host's /tmp goes inside
        os.makedirs(new + folder, exist_ok=True)
        mount("tmpfs", new + folder, "tmpfs", MS_NOSUID | MS_NODEV, f"size={TMP_SIZE},mode=1777")
    for path in view.binds:
        _bind(path, new + path, readonly=True)
    for path, target in view.links:
        os.makedirs(os.path.dirname(new + path), exist_ok=True)
        os.symlink(target, new + path)
    for device in view.devices:
        _bind(device, new + device, readonly=False)
    for folder in view.withheld:  # another autodiff framework: a package that refuses to import
        target = new + folder
        if os.path.isdir(target):
            mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=16k,mode=755")
            Path(target, "__init__.py").write_text(_WITHHELD_INIT.format(name=os.path.basename(folder)))
            mount(None, target, None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC)
        elif os.path.isfile(target):
            mount("/dev/null", target, None, MS_BIND)
    for folder in [*config.answers, *config.hidden, *view.hidden]:
        target = new + folder  # the kit's reference answers, and any grader folder in the view
        if os.path.isdir(target) and not os.path.islink(target):
            mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=16k,mode=755")
        elif os.path.isfile(target):  # expected results recorded on the default seed's draws
            mount("/dev/null", target, None, MS_BIND)
    os.makedirs(new + home, exist_ok=True)
    mount(home, new + home, None, MS_BIND | MS_REC)
    os.makedirs(new + "/proc", exist_ok=True)
    mount("proc", new + "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    os.makedirs(new + _OLD_ROOT)
    pivot_root(new, new + _OLD_ROOT)
    os.chdir("/")
    if libc().umount2(_OLD_ROOT.encode(), MNT_DETACH) != 0:
        raise OSError("cannot detach the host's root from a worker's view")
    os.rmdir(_OLD_ROOT)


def plan_view(config: Config) -> View:
    """What a worker's file system holds (worked out once, in the zygote): folders and files to
    bind read-only at their host paths, symbolic links to recreate, devices, withheld packages."""
    kit = os.path.realpath(config.kit)
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

    installed = {os.path.realpath(p) for p in [*site.getsitepackages(), site.getusersitepackages(), sys.prefix,
                                               sys.base_prefix, sys.exec_prefix]}
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
                if not name.endswith((".dist-info", ".egg-info")) and any(fnmatch.fnmatchcase(name, w)
                                                                          for w in WITHHELD):
                    withheld.append(os.path.join(os.path.realpath(folder), name))
    devices = [f"/dev/{name}" for name in DEVICES if os.path.exists(f"/dev/{name}")]
    root = os.path.join(os.getcwd(), "view")
    os.makedirs(root, mode=0o700, exist_ok=True)
    return View(root, tuple(kept), (*links, *DEVICE_LINKS), tuple(devices), tuple(sorted(set(withheld))), tuple(hidden))


def _bind(source: str, target: str, readonly: bool) -> None:
    """Bind `source` (a folder or a file) at `target` in the view being built."""
    if os.path.isdir(source):
        os.makedirs(target, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "a"):
            pass
    mount(source, target, None, MS_BIND | MS_REC)
    if readonly:
        # The flags the host's mount already has, kept: in a user namespace they are locked, and
        # a remount that would clear one (nodev, noexec, an atime flag) is refused.
        kept = os.statvfs(target).f_flag & (os.ST_NODEV | os.ST_NOEXEC | os.ST_NOATIME | os.ST_NODIRATIME
                                            | os.ST_RELATIME)
        mount(None, target, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | kept)



def _runtime_roots(config: Config) -> list[str]:
    """The folders a worker must read: Python's, the installed packages', the kit's."""
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.path.realpath(sys.executable)),
             config.kit}
    roots |= {p for p in sys.path if p and os.path.isdir(p)}
    return sorted(os.path.realpath(r) for r in roots if r and os.path.isdir(r))


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def become(uid: int) -> None:
    """Drop root for `uid` (and the group of the same number), with no supplementary groups
    (the capabilities left, `_linux.drop_capabilities`)."""
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)


