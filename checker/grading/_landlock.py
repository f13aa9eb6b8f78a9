"""Landlock for a worker: which files it may read and write, no TCP, no abstract unix sockets or
signals out of its domain; needs no privilege (Linux 5.13+, docs/grading.md).

A small ctypes layer over the three system calls (the same numbers on every architecture). A
`Ruleset` handles every access right the running kernel's ABI knows, so whatever is not granted
is refused; `grant` and `grant_write` add the allow-list, `restrict` applies it to this process
and all it starts, for good. Landlock cannot take a folder back out of a granted one: `reading` grants
around what is left out (each sibling on the way down, by itself).
"""

from __future__ import annotations

import ctypes
import functools
import os
import stat
import sys
from collections.abc import Iterable

from checker.grading import _linux

_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1
_PR_SET_NO_NEW_PRIVS = 38

EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
REMOVE_DIR, REMOVE_FILE, MAKE_CHAR, MAKE_DIR, MAKE_REG = 1 << 4, 1 << 5, 1 << 6, 1 << 7, 1 << 8
MAKE_SOCK, MAKE_FIFO, MAKE_BLOCK, MAKE_SYM = 1 << 9, 1 << 10, 1 << 11, 1 << 12
REFER, TRUNCATE, IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15  # ABI 2, 3, 5
BIND_TCP, CONNECT_TCP = 1 << 0, 1 << 1  # ABI 4
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1  # ABI 6

# The file system rights each ABI knows (each includes the earlier ones).
_FS_BY_ABI = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 4: (1 << 15) - 1, 5: (1 << 16) - 1}
FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV  # the only rights a rule on a file may carry
READ = EXECUTE | READ_FILE | READ_DIR
WRITE = (READ_FILE | READ_DIR | WRITE_FILE | REMOVE_DIR | REMOVE_FILE | MAKE_DIR | MAKE_REG | MAKE_SYM | MAKE_FIFO
         | MAKE_SOCK | REFER | TRUNCATE)


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


@functools.cache
def _libc() -> ctypes.CDLL:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc


def _syscall(number: int, *args: object) -> int:
    result = int(_libc().syscall(ctypes.c_long(number), *args))
    if result < 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))
    return result


def abi() -> int:
    """The running kernel's Landlock ABI version, or 0 where there is none (not Linux, a kernel
    before 5.13, Landlock not enabled at boot) or `JACPUZZLES_NO_LANDLOCK` is set (tests)."""
    if not sys.platform.startswith("linux") or _linux.switched_off("JACPUZZLES_NO_LANDLOCK"):
        return 0
    try:
        return _syscall(_CREATE_RULESET, ctypes.c_void_p(0), ctypes.c_size_t(0),
                        ctypes.c_uint32(_CREATE_RULESET_VERSION))
    except OSError:
        return 0


def describe(version: int) -> str:
    """What Landlock ABI `version` enforces, in words (for the grader's start-up line)."""
    parts = ["files"]
    if version >= 4:
        parts.append("no TCP")
    if version >= 6:
        parts.append("no abstract unix sockets or signals out")
    return f"Landlock ABI {version} ({', '.join(parts)})"


class Ruleset:
    """A Landlock ruleset being built: every right of the kernel's ABI handled, none granted yet."""

    def __init__(self, version: int) -> None:
        if version < 1:
            raise OSError("Landlock is not available")
        self.version = version
        self.fs = _FS_BY_ABI.get(version, _FS_BY_ABI[5])
        attr = _RulesetAttr(self.fs, BIND_TCP | CONNECT_TCP if version >= 4 else 0,
                            SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL if version >= 6 else 0)
        size = 24 if version >= 6 else 16 if version >= 4 else 8  # what this ABI's struct holds
        self.fd = _syscall(_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))

    def grant(self, path: str, rights: int) -> None:
        """Allow `rights` on `path` and (a folder) all below it; a path that is missing is skipped."""
        try:
            fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
        except OSError:
            return
        try:
            allowed = rights & self.fs
            if not stat.S_ISDIR(os.fstat(fd).st_mode):
                allowed &= FILE_RIGHTS
            if allowed:
                rule = _PathBeneath(allowed, fd)
                _syscall(_ADD_RULE, ctypes.c_int(self.fd), ctypes.c_int(_RULE_PATH_BENEATH), ctypes.byref(rule),
                         ctypes.c_uint32(0))
        finally:
            os.close(fd)

    def grant_write(self, path: str) -> None:
        """Allow reading and writing in folder `path` and all below it."""
        self.grant(path, WRITE)

    def restrict(self) -> None:
        """Enforce the ruleset on this process and all it starts, for good."""
        _prctl_no_new_privs()
        _syscall(_RESTRICT_SELF, ctypes.c_int(self.fd), ctypes.c_uint32(0))
        os.close(self.fd)


def reading(path: str, except_: Iterable[str] = ()) -> list[tuple[str, int]]:
    """The rules that allow reading (and running) `path` and all below it but nothing of
    `except_`: a folder holding some of them is listable, and each of its other entries is
    granted by itself (worked out once, by the zygote; a worker only applies them)."""
    path = os.path.realpath(path)
    inside = [e for e in except_ if _under(e, path)]
    if not inside:
        return [(path, READ)] if os.path.exists(path) else []
    if path in inside or not os.path.isdir(path) or os.path.islink(path):
        return []
    rules = [(path, READ_DIR)]
    for name in sorted(os.listdir(path)):
        entry = os.path.join(path, name)
        if not os.path.islink(entry):  # a link's target is granted (or not) where it is
            rules += reading(entry, inside)
    return rules


def _prctl_no_new_privs() -> None:
    if _libc().prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")
