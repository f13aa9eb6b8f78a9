"""The Linux calls the grader and its processes make through the C library: prctl, mount,
unshare, and the constants they take (from the kernel's headers, defined once here)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

# Namespaces (clone, unshare, setns).
CLONE_NEWNS = 0x00020000
CLONE_NEWIPC = 0x08000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWUTS = 0x04000000
CLONE_THREAD = 0x00010000
CLONE_FILES = 0x00000400
CLOSE_RANGE_UNSHARE = 0x2
# Mount flags (mount), and umount2's.
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT = 1, 2, 4, 8, 32
MS_BIND, MS_REC, MS_PRIVATE = 4096, 16384, 1 << 18
MNT_DETACH = 2
# prctl options.
PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
PR_CAPBSET_DROP = 24
PR_SET_NO_NEW_PRIVS = 38
PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 47, 4
AF_NETLINK = 16
# System calls the C library may not wrap: their numbers, per architecture.
PIVOT_ROOT = {"x86_64": 155, "aarch64": 41, "riscv64": 41, "ppc64le": 203, "s390x": 217}


def libc() -> Any:
    """The C library, its calls setting errno."""
    import ctypes

    return ctypes.CDLL(None, use_errno=True)


def prctl(option: int, value: int) -> int:
    """Linux's prctl, best effort: 0 when it worked (other systems: -1, nothing done)."""
    if not sys.platform.startswith("linux"):
        return -1
    import ctypes

    try:
        return int(ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0))
    except (OSError, AttributeError):
        return -1


def unshare(flags: int) -> None:
    """Leave the namespaces `flags` names for new ones of this process's own."""
    import ctypes

    if libc().unshare(flags) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"unshare({flags:#x}) failed: {os.strerror(err)}")


def mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    """mount(2), raising OSError when it fails."""
    import ctypes

    def enc(value: str | None) -> bytes | None:
        return value.encode() if value is not None else None

    if libc().mount(enc(source), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data)) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"mount of {target} failed: {os.strerror(err)}")


def pivot_root(new: str, old: str) -> None:
    """pivot_root(2), by its number on this architecture (the C library has no wrapper)."""
    import ctypes
    import platform

    number = PIVOT_ROOT.get(platform.machine())
    if number is None:
        raise OSError(f"pivot_root: unknown system call number on {platform.machine()}")
    if libc().syscall(number, new.encode(), old.encode()) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"pivot_root failed: {os.strerror(err)}")


def status_field(text: str, name: str) -> str:
    """The first word of field `name` ("CapEff", "Threads", "VmSize"...) of a /proc status text;
    OSError where it has none."""
    for line in text.splitlines():
        if line.startswith(name + ":"):
            return line.split()[1]
    raise OSError(f"/proc status has no {name}")


def capabilities(kind: str) -> int:
    """This process's capability set `kind` ("CapEff", "CapPrm", "CapBnd"), from /proc."""
    return int(status_field(Path("/proc/self/status").read_text(), kind), 16)


def drop_bounding_set() -> None:
    """Empty the capability bounding set, so no execve can bring a capability back (needs
    CAP_SETPCAP: before the uid changes). A process that holds no capability has nothing to drop,
    and no_new_privs (set with the seccomp filter, and by `drop_capabilities`) keeps it so."""
    import ctypes

    if capabilities("CapEff") == 0:
        return
    c = libc()
    for cap in range(64):
        if capabilities("CapBnd") >> cap == 0:
            break
        if c.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), f"cannot drop capability {cap} from the bounding set: "
                                              f"{os.strerror(ctypes.get_errno())}")
    if capabilities("CapBnd") != 0:
        raise OSError("the capability bounding set is not empty after dropping it")


def drop_capabilities() -> None:
    """Give up every capability this process holds (in a user namespace of its own, all of them):
    the ambient, effective, permitted and inheritable sets; then no_new_privs, and checks."""
    import ctypes

    c = libc()
    c.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    data = (ctypes.c_uint32 * 6)()  # two {effective, permitted, inheritable}, all empty
    if c.capset(header, data) != 0:
        raise OSError(ctypes.get_errno(), "capset: cannot give up the capabilities")
    if c.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "cannot set no_new_privs")
    if capabilities("CapEff") or capabilities("CapPrm"):
        raise OSError("capabilities are still held after capset")


def enter_user_namespace(uid: int, gid: int) -> str:
    """Make this (single-threaded) process the first of a user namespace of its own, mapping
    only `uid` and `gid` (its own): every capability there, over namespaces it then makes, and
    none over the host. "" when it did; else why not, and nothing changed (a forked child tries
    first, with a mount in a mount namespace of its own: AppArmor may allow the user namespace
    and refuse its capabilities)."""

    def enter() -> None:
        map_own_ids(uid, gid)
        # The zygote, fresh from exec, nothing loaded yet, sets it non-dumpable again itself.
        prctl(PR_SET_DUMPABLE, 1)

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            enter()
            unshare(CLONE_NEWNS)
            mount(None, "/", None, MS_REC | MS_PRIVATE)
            mount("tmpfs", "/", "tmpfs", MS_NOSUID | MS_NODEV, "size=16k")  # over /, in its own mount namespace
            os._exit(0)
        except BaseException as exc:  # noqa: BLE001 - the reason, for the parent
            os.write(write, (exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)).encode()[:300])
            os._exit(1)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        said = pipe.read().decode("utf-8", "replace")
    if os.waitpid(pid, 0)[1] != 0:
        return (f"{said or 'refused'} (by user.max_user_namespaces, AppArmor's restrict_unprivileged_userns or a "
                "container's seccomp filter?)")
    enter()
    return ""


def map_own_ids(uid: int, gid: int) -> None:
    """Make this single-threaded process the first of a new user namespace that maps `uid` and
    `gid` alone, each to itself. Left non-dumpable (whatever it was)."""
    unshare(CLONE_NEWUSER)
    # Its own /proc files are root's while it is non-dumpable: writable for the maps meanwhile.
    prctl(PR_SET_DUMPABLE, 1)
    for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
        with open(f"/proc/self/{name}", "w") as file:  # setgroups first: the kernel requires it for gid_map
            file.write(text)
    prctl(PR_SET_DUMPABLE, 0)


def count_own_tasks(limit: int) -> None:
    """Hold this process and all it starts to `limit` tasks (processes and threads) in all, as a
    plain user whose uid is shared with the grader: in a user namespace of its own (nested in the
    zygote's), where since Linux 5.14 the kernel counts `RLIMIT_NPROC` per user namespace, so the
    count is of this process's own tasks only. (The limit is set after the namespace is made: the
    kernel holds the namespace's parent level to the limit its maker had, none.) Before 5.14 the
    count was of every process of the uid on the machine: refused there."""
    import resource

    release = tuple(int(part) for part in os.uname().release.split("-")[0].split(".")[:2] if part.isdigit())
    if release < (5, 14):
        raise OSError(f"Linux {os.uname().release} counts RLIMIT_NPROC per uid, not per user namespace (5.14+)")
    map_own_ids(os.getuid(), os.getgid())
    hard = resource.getrlimit(resource.RLIMIT_NPROC)[1]  # never raised: not above the user's own hard limit
    limit = limit if hard == resource.RLIM_INFINITY else min(limit, hard)
    resource.setrlimit(resource.RLIMIT_NPROC, (limit, limit))


def uid_tasks_left(proc: Path = Path("/proc")) -> int | None:
    """How many more tasks this process's real uid may start under its `RLIMIT_NPROC` (a plain
    user's `ulimit -u`, which bounds the uid's tasks in every user namespace it makes): the
    limit less the threads of every process of the uid. None for root, whom the kernel exempts,
    or where there is no limit."""
    import resource

    soft = resource.getrlimit(resource.RLIMIT_NPROC)[0]
    if os.getuid() == 0 or soft == resource.RLIM_INFINITY:
        return None
    uid, used = str(os.getuid()), 0
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = dict(line.split(":", 1) for line in (entry / "status").read_text().splitlines() if ":" in line)
        except OSError:
            continue  # ended meanwhile
        if fields.get("Uid", "").split()[:1] == [uid]:
            used += int(fields.get("Threads", "1"))
    return soft - used


def switched_off(variable: str) -> bool:
    """Whether an environment switch such as JACPUZZLES_NO_NAMESPACES is set: any value but
    empty, 0, false, no or off (red team RT23: `=0` turned namespaces off)."""
    return os.environ.get(variable, "").strip().lower() not in ("", "0", "false", "no", "off")


def zygote_user_namespace() -> str:
    """As a plain user, before the zygote imports anything that starts a thread: a user namespace
    of its own (`enter_user_namespace`), in which it encloses workers as root does. "" when it
    entered one, else why not (as root: none is needed)."""
    if not sys.platform.startswith("linux"):
        return "not Linux"
    if os.geteuid() == 0:
        return "not needed: the grader runs as root"
    for switch in ("JACPUZZLES_NO_NAMESPACES", "JACPUZZLES_NO_USER_NAMESPACES"):
        if switched_off(switch):  # as where they are refused (tests, debugging)
            return f"turned off by {switch}"
    return enter_user_namespace(os.getuid(), os.getgid())
