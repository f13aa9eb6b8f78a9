"""The class grader's command line, run as a teacher runs it: `python -m checker grade ...` in a
fresh process, its output captured, for the tests that grade a class through the command line."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from tests.conftest import REPO

Option = str | Path | int | bool | None


def environ(**extra: str) -> dict[str, str]:
    """This process's environment as it is now, with `extra` over it (`environ(COLUMNS="200")`)."""
    return {**os.environ, **extra}


def grade_argv(*args: str | Path, **options: Option) -> list[str]:
    """`python -m checker grade ARGS --OPTION VALUE ...`: the keywords in the order given, `_` spelled `-`
    (`memory_mb=1024` is `--memory-mb 1024`), `True` a bare flag, `None` left out."""
    argv = [sys.executable, "-m", "checker", "grade", *map(str, args)]
    for name, value in options.items():
        if value is None or value is False:
            continue
        flag = "--" + name.replace("_", "-")
        argv += [flag] if value is True else [flag, str(value)]
    return argv


def run_grade(
    *args: str | Path,
    wait: float,
    env: Mapping[str, str] | None = None,
    cwd: str | Path = REPO,
    stdin: int | None = subprocess.DEVNULL,
    **options: Option,
) -> subprocess.CompletedProcess[str]:
    """Run `grade_argv(*args, **options)` and wait at most `wait` seconds for it (the subprocess's
    `timeout`, apart from the grader's own `--timeout`); `env` is the whole environment (`None`:
    this process's), stdin closed unless `stdin` says otherwise. Returns the finished process, its
    output as text."""
    return subprocess.run(
        grade_argv(*args, **options), capture_output=True, text=True, cwd=cwd, stdin=stdin, timeout=wait, env=env
    )
