"""The grader's scratch files: folders 0700 and files 0600, made without following a link, so
no other user of the machine reads the draws, configs or copies of answers kept there; and
trees a worker wrote, removed whatever it did to them."""

from __future__ import annotations

import errno
import os
import shutil
import stat
import subprocess
from pathlib import Path

FOLDER_MODE = 0o700
FILE_MODE = 0o600


def disk_full(exc: BaseException) -> bool:
    """Whether `exc` says a disk, or the user's quota on it, is full."""
    return isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)


def folders(path: Path, below: Path) -> None:
    """Make `path` and every missing folder above it (from `below`, the grader's folder, down), each 0700."""
    missing = []
    current = path
    while not current.is_dir() and current != current.parent:
        missing.append(current)
        current = current.parent
    for folder in reversed(missing):
        folder.mkdir(mode=FOLDER_MODE)
        os.chmod(folder, FOLDER_MODE)  # whatever the umask


def write(path: Path, data: bytes) -> None:
    """Write a new file of the grader's, 0600 (an existing file or a link there is an error)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, FILE_MODE)
    with os.fdopen(fd, "wb") as f:
        f.write(data)


def unlock_tree(path: Path) -> None:
    """Make every folder under `path` listable, writable and enterable by its owner again: a
    worker of the grader's own uid (a plain user's) can make a folder with `mkdir(name, 0o300)`,
    which its owner can neither list nor empty, so its files outlived the grader and filled the
    next run's disk (red team RT16). The worker may not chmod (seccomp); the grader may. Walked
    without recursion, however deep."""
    stack = [str(path)]
    while stack:
        folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except PermissionError:
            try:
                os.chmod(folder, stat.S_IRWXU)
                entries = list(os.scandir(folder))
            except OSError:
                continue
        except OSError:
            continue
        for entry in entries:
            try:
                is_folder = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_folder:
                try:
                    if stat.S_IMODE(entry.stat(follow_symlinks=False).st_mode) & stat.S_IRWXU != stat.S_IRWXU:
                        os.chmod(entry.path, stat.S_IRWXU)
                except OSError:
                    pass
                stack.append(entry.path)


def remove_tree(path: Path) -> None:
    """Remove `path` and all below it, however deep: a worker can nest folders past Python's
    recursion limit (red team, round 3), where `shutil.rmtree` raises; `rm` walks any depth."""
    unlock_tree(path)
    try:
        shutil.rmtree(path, ignore_errors=True)
    except RecursionError:
        pass
    if os.path.lexists(path):
        subprocess.run(["rm", "-rf", "--one-file-system", "--", str(path)], check=False, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
