"""The Linux calls the grader and its processes make through the C library: prctl, mount,
unshare, and the constants they take (from the kernel's headers, defined once here)."""

from __future__ import annotations

import os
import sys
from typing import Any

# Namespaces (clone, unshare, setns).
CLONE_NEWNS = 0x00020000
CLONE_NEWIPC = 0x08000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
CLONE_NEWUSER = 0x10000000
# Mount flags (mount), and umount2's.
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT = 1, 2, 4, 8, 32
MS_BIND, MS_REC, MS_PRIVATE = 4096, 16384, 1 << 18
MNT_DETACH = 2
# prctl options.
PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
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
        raise OSError(ctypes.get_errno(), f"unshare({flags:#x}) failed")


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
