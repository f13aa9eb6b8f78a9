"""Jobs that each stay within their thread limit must not together take every task the machine
or the grader's control group has left (a container's `--pids-limit`): the zygote could then
fork no job, and classmates were `ungradable` (red team RT27). Each job's limit is its share of
what is left; too small a share refuses to start, naming `--jobs`. The attack itself, in a real
container with a process limit, is tests/container/cases/holds_threads_below_the_usual_limit."""

from __future__ import annotations

import os
import resource
import shutil
from pathlib import Path

import pytest

from checker.grading import _cgroups, _linux, _sandbox
from tests._grading import run_grade
from tests.conftest import REPO


def test_each_job_gets_its_share_of_the_tasks_left(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_cgroups, "tasks_left", lambda: None)
    monkeypatch.setattr(_linux, "uid_tasks_left", lambda: None)
    assert _sandbox.thread_limit(8) == _sandbox.THREADS  # nothing found: the usual limit
    monkeypatch.setattr(_cgroups, "tasks_left", lambda: 10**6)
    assert _sandbox.thread_limit(8) == _sandbox.THREADS  # room for all: the usual limit
    monkeypatch.setattr(_cgroups, "tasks_left", lambda: 2000)
    share = _sandbox.thread_limit(9)
    assert 9 * (share + 2) + _sandbox.TASK_RESERVE <= 2000 and share < _sandbox.THREADS


def test_too_few_tasks_for_the_jobs_refuses_and_says_how_many_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_cgroups, "tasks_left", lambda: 400)
    with pytest.raises(_sandbox.TooFewTasks, match=r"only 400 more .* --jobs \d+ or fewer.*--pids-limit"):
        _sandbox.thread_limit(16)


def test_grade_with_more_jobs_than_the_machine_has_tasks_for_exits_2_saying_what_to_pass(tmp_path: Path) -> None:
    (tmp_path / "subs" / "ana" / "autodiff").mkdir(parents=True)
    shutil.copy(REPO / "solutions" / "autodiff" / "neg.py", tmp_path / "subs" / "ana" / "autodiff" / "neg.py")
    done = run_grade(tmp_path / "subs", wait=120, out=tmp_path / "out", jobs=10_000_000)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "too few for 10000000 jobs at once" in done.stderr and "pass --jobs" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "out" / "ana.json").exists()


def test_a_plain_users_tasks_left_are_its_ulimit_less_the_threads_of_its_processes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Red team RT28: with `ulimit -u 300` and two jobs of 272 threads, one answer holding its
    # limit left classmates' workers unable to start theirs.
    for pid, uid, threads in ((10, 1001, 40), (11, 1001, 3), (12, 0, 500), (13, 1002, 9)):
        (tmp_path / str(pid)).mkdir()
        status = f"Name:\tpython\nUid:\t{uid}\t{uid}\t{uid}\t{uid}\nThreads:\t{threads}\n"
        (tmp_path / str(pid) / "status").write_text(status)
    (tmp_path / "self").mkdir()
    monkeypatch.setattr(os, "getuid", lambda: 1001)
    monkeypatch.setattr(resource, "getrlimit", lambda which: (300, 300))
    assert _linux.uid_tasks_left(tmp_path) == 300 - 43
    monkeypatch.setattr(resource, "getrlimit", lambda which: (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    assert _linux.uid_tasks_left(tmp_path) is None
    monkeypatch.setattr(os, "getuid", lambda: 0)
    monkeypatch.setattr(resource, "getrlimit", lambda which: (300, 300))
    assert _linux.uid_tasks_left(tmp_path) is None  # root: the kernel does not hold it to the limit
