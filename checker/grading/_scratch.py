"""The grader's scratch files: folders 0700 and files 0600, made without following a link, so
no other user of the machine reads the draws, configs or copies of answers kept there."""

from __future__ import annotations

import os
from pathlib import Path

FOLDER_MODE = 0o700
FILE_MODE = 0o600


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
