"""The grader's side of the trust boundary: what it reads back from a worker's folder.

A worker's folder is the worker's: whatever it holds may be a link, a FIFO, a device, a forged
record or array. The grader reads only regular files, capped, and believes only numbers; it
sets every status itself. These are fast, in-process tests of `_sandbox`'s readers; the grading
corpus (tests/grading_corpus/, `forged_status`, `swaps_results`, `budget_reset`) attacks them
through a real `jacpuzzles grade` run.
"""

from __future__ import annotations

import io
import json
import os
import queue
import threading
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from checker.engine._verdict import Kind, Status
from checker.grading import _disk, _results, _sandbox, _scratch
from checker.grading._messages import Job


def _record(folder: Path, index: int, record: dict[str, object], arrays: dict[str, np.ndarray] | None = None) -> None:
    (folder / f"{index}.json").write_text(json.dumps(record))
    if arrays is not None:
        np.savez(folder / f"{index}.npz", allow_pickle=False, **arrays)


def test_a_forged_pass_is_an_error_decided_by_the_grader(tmp_path: Path) -> None:
    forged = {"kind": "exception", "message": "all good", "location": None, "draw": None, "status": "pass"}
    _record(tmp_path, 0, {"problem": forged, "output": "", "stacked": True, "draws": 0, "dtypes": []})
    run = _results.read_result(tmp_path, 0, "cumsum", 3)
    assert run is not None and run.problem is not None
    assert run.problem.status == Status.ERROR and run.problem.message == "all good"


@pytest.mark.parametrize(("kind", "claimed", "status"), [
    ("untouched", "error", Status.TODO), ("not-numbers", "fail", Status.FAIL), ("exception", "fail", Status.ERROR),
    ("kit-bug", "error", Status.ERROR), ("no-such-kind", "pass", Status.ERROR),
])
def test_the_status_of_a_reported_problem_comes_from_its_kind(kind: str, claimed: str, status: Status) -> None:
    problem = _results.read_problem({"kind": kind, "message": "m", "location": None, "draw": None, "status": claimed})
    assert problem is not None and problem.status == status and problem.kind != Kind.KIT_BUG


def test_forged_text_is_capped_and_a_draw_must_be_one_of_the_grader_s(tmp_path: Path) -> None:
    problem = _results.read_problem(
        {"kind": "exception", "message": "x" * 100000, "location": 7, "draw": "not a draw", "status": "error"}, ["x0"]
    )
    assert problem is not None and len(problem.message) < 2100 and problem.draw is None and problem.location is None


@pytest.mark.parametrize("target", ["/etc/shadow", "/dev/zero", "fifo"])
def test_a_result_replaced_by_a_link_or_fifo_is_not_followed(tmp_path: Path, target: str) -> None:
    if target == "fifo":
        os.mkfifo(tmp_path / "0.json")  # no writer: opening it to read without O_NONBLOCK would hang
    else:
        (tmp_path / "0.json").symlink_to(target)
    done: list[object] = []
    reader = threading.Thread(target=lambda: done.append(_results.read_result(tmp_path, 0, "cumsum", 3)), daemon=True)
    reader.start()
    reader.join(5)
    assert done, "reading the result hung"
    run = done[0]
    assert run is not None and run.problem is not None and "could not be read back" in run.problem.message  # type: ignore[attr-defined]


def test_stderr_and_current_are_never_read_through_links_or_fifos(tmp_path: Path) -> None:
    (tmp_path / "stderr").symlink_to("/etc/passwd")
    os.mkfifo(tmp_path / "current")
    assert _sandbox._tail(tmp_path / "stderr") == ""
    assert _sandbox._current(tmp_path) == ""
    (tmp_path / "big").write_bytes(b"x" * 100)
    assert (
        _results.read_untrusted(tmp_path / "big", 99) is None
        and _results.read_untrusted(tmp_path / "big", 100) == b"x" * 100
    )


def test_an_array_whose_header_claims_more_than_it_holds_allocates_nothing(tmp_path: Path) -> None:
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": "<f8", "fortran_order": False, "shape": (10**11,)})
    with zipfile.ZipFile(tmp_path / "0.npz", "w") as archive:
        archive.writestr("0.npy", b"\x93NUMPY\x01\x00" + header.getvalue()[8:] + b"\0" * 80)
    (tmp_path / "0.json").write_text(
        json.dumps({"problem": None, "output": "", "stacked": True, "draws": 3, "dtypes": [["float32"]]})
    )
    run = _results.read_result(tmp_path, 0, "cumsum", 3)
    assert run is not None and run.problem is not None and "declares" in run.problem.message


def test_a_compressed_array_is_refused(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    np.save(buffer, np.zeros((3, 10, 10), np.float32))
    with zipfile.ZipFile(tmp_path / "0.npz", "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("0.npy", buffer.getvalue())
    (tmp_path / "0.json").write_text(
        json.dumps({"problem": None, "output": "", "stacked": True, "draws": 3, "dtypes": [["float32"]]})
    )
    run = _results.read_result(tmp_path, 0, "cumsum", 3)
    assert run is not None and run.problem is not None and "not a stored array" in run.problem.message


def test_a_well_formed_result_reads_back_exactly(tmp_path: Path) -> None:
    blocks = np.arange(300, dtype=np.float32).reshape(3, 10, 10)
    _record(
        tmp_path,
        0,
        {"problem": None, "output": "hi", "stacked": True, "draws": 3, "dtypes": [["float32"]]},
        {"0": blocks},
    )
    run = _results.read_result(tmp_path, 0, "cumsum", 3)
    assert run is not None and run.problem is None and run.output == "hi"
    assert all(np.array_equal(run.answers[k][0], blocks[k]) for k in range(3))


def test_two_graders_never_hold_the_same_block_of_worker_uids(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_sandbox, "UID_LOCKS", tmp_path)
    # Only the locks: another test's grader running meanwhile holds workers in some block, which
    # `_uid_block` passes over (the test below), and the third block would differ.
    monkeypatch.setattr(_sandbox, "_running_uids", set)
    first = _sandbox._uid_block()
    second = _sandbox._uid_block()
    assert first is not None and second is not None and first[0] != second[0]
    assert abs(first[0] - second[0]) >= _sandbox.UID_BLOCK
    os.close(first[1])
    third = _sandbox._uid_block()  # the first block is free again once its holder is gone
    assert third is not None and third[0] == first[0]
    os.close(second[1])
    os.close(third[1])


def test_a_block_some_process_still_runs_in_is_passed_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A worker of a grader killed mid-job may outlive its lock: its block is not handed out again.
    monkeypatch.setattr(_sandbox, "UID_LOCKS", tmp_path)
    monkeypatch.setattr(_sandbox, "_running_uids", lambda: {_sandbox.UID_BASE + 3})
    found = _sandbox._uid_block()
    assert found is not None and found[0] == _sandbox.UID_BASE + _sandbox.UID_BLOCK
    os.close(found[1])


def test_the_start_up_proof_stops_grading_with_one_line_when_the_reference_answer_does_not_pass(tmp_path: Path) -> None:
    from checker.engine import _sampling
    from checker.engine._catalog import puzzle_named
    from checker.engine._runner import Problem, Run
    from checker.grading import _grade

    class Broken:  # a worker that cannot import what it needs, as with an unreadable install
        scratch = tmp_path
        last_words = "PermissionError: [Errno 13] Permission denied: '/root/venv/lib/python3.11/fileinput.py'"

        def run(self, root: Path, items: list[tuple[str, str]]) -> list[Run]:
            assert (root / items[0][1]).is_file()
            return [Run(problem=Problem(Kind.EXCEPTION, "the process running autodiff/neg.py exited with status 70"))]

    draws = {"neg": _sampling.draws(puzzle_named("neg"), 0)}
    line = _grade._prove(Broken(), "neg", draws, {})  # type: ignore[arg-type]
    assert line is not None and "\n" not in line
    assert (
        "cannot run answers on this machine" in line
        and "status 70" in line
        and "readable by every user" in line
        and "fileinput.py" in line
    )


@pytest.fixture
def bare_pool(tmp_path: Path) -> Iterator[_sandbox.Pool]:
    """A Pool without its zygote, holding what `_attempts` reads: for tests that stand in for
    `_drive`. Its disk watch's thread ends with the test."""
    pool = object.__new__(_sandbox.Pool)
    pool.limits = _sandbox.Limits(timeout=2, memory_mb=512)
    pool.counts = {"cumsum": 3, "neg": 3, "relu": 3}
    pool.labels = {name: ["x0", "x1", "x2"] for name in pool.counts}
    pool.puzzles = {}
    pool.last_words = ""
    pool.scratch = tmp_path
    pool._stopped = threading.Event()
    pool._space = _disk.Watch(tmp_path, pool._stopped)
    pool.enclosed = False
    yield pool
    pool._stopped.set()


@pytest.mark.parametrize("claim", ["batch", "trace 7", "run 0", ""])
def test_a_worker_that_keeps_claiming_a_stage_cannot_keep_the_grader_retrying(tmp_path: Path, claim: str,
                                                                              bare_pool: _sandbox.Pool) -> None:
    """A worker killed for time on every attempt, whose `current` file names the batch, a puzzle
    it was not given, or one already settled: each attempt settles a puzzle, so the submission
    ends after at most one attempt more than it has puzzles (the grading corpus's `budget_reset`
    once kept a class run retrying without end)."""
    pool = bare_pool
    attempts: list[list[int]] = []

    def drive(job: Job, jobdir: Path, stages: set[str], *budgets: object) -> _sandbox._Ended:
        attempts.append(list(job.indices))
        if len(attempts) > 10:
            raise AssertionError(f"still retrying after {attempts}")
        return _sandbox._Ended(-9, True, True, "", claim)

    pool._drive = drive  # type: ignore[method-assign]
    items = [("cumsum", "autodiff/cumsum.py"), ("neg", "autodiff/neg.py"), ("relu", "autodiff/relu.py")]
    runs = pool._attempts(1, tmp_path, items, tmp_path, None)
    assert len(attempts) <= len(items) + 1, attempts
    assert all(r.problem is not None and r.problem.kind == Kind.TIMEOUT for r in runs), runs


@pytest.mark.parametrize("forged", ["deep_json", "npz_not_a_zip"])
def test_a_record_that_breaks_the_readers_is_that_answer_s_error(tmp_path: Path, forged: str) -> None:
    """A record nested past the recursion limit, or an npz that is no zip, is that puzzle's
    error, not the whole submission `ungradable` ("the grader failed")."""
    if forged == "deep_json":
        (tmp_path / "0.json").write_text("[" * 300000 + "]" * 300000)
    else:
        _record(tmp_path, 0, {"problem": None, "output": "", "stacked": True, "draws": 3, "dtypes": [["float32"]]})
        (tmp_path / "0.npz").write_bytes(b"this is not a zip file at all")
    run = _results.read_result(tmp_path, 0, "cumsum", 3)
    assert run is not None and run.problem is not None and run.problem.status == Status.ERROR
    assert run.problem.message.startswith("the result of this answer could not be read back")


@pytest.mark.parametrize(("count", "budgets"), [(3, None), (6, 3)], ids=["grading", "evidence"])
def test_a_worker_walking_through_stages_gets_each_budget_once_per_submission(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, count: int, budgets: int | None, bare_pool: _sandbox.Pool
) -> None:
    """A worker that rewrites `current` through the stages of the puzzles still to run, on every
    attempt, gets no fresh budget for each (its submission's time would grow with the square of
    its puzzles). A stage's budget is granted once per submission, and the submission as a
    whole has (2P + 1) budgets: here 3 puzzles, 7 budgets of 0.3 s (2.1 s), whatever it claims;
    a fresh budget per stage and attempt would give it 15 (4.5 s). The integrity report's
    runs of an answer on every variant of its puzzle are given (2P + 1)
    budgets for P failing puzzles, here 3 for 6 runs of one puzzle's variants."""
    budget = 0.3
    monkeypatch.setattr(_sandbox.Limits, "puzzle_budget", lambda self: budget)
    pool = bare_pool
    killed: list[threading.Event] = []

    def kill(reaper: int, worker: int | None) -> None:
        killed[-1].set()

    monkeypatch.setattr(_sandbox, "_kill_job", kill)

    def drive(job: Job, jobdir: Path, stages: set[str], granted: set[str], allowance: float) -> _sandbox._Ended:
        box: queue.Queue[dict[str, object]] = queue.Queue()
        killed.append(threading.Event())
        done = killed[-1]

        def worker() -> None:  # walks every stage name, holding each almost a budget, until killed
            box.put({"event": "forked", "reaper": 1})
            box.put({"event": "armed"})
            names = sorted(stages) * 50
            for name in names:
                (jobdir / "current").write_text(name)
                if done.wait(budget * 0.9):
                    break
            box.put({"event": "reaped", "status": -9})

        threading.Thread(target=worker, daemon=True).start()
        return pool._watch(box, jobdir, stages, None, granted, allowance)

    pool._drive = drive  # type: ignore[method-assign]
    items = [("cumsum", "autodiff/cumsum.py"), ("neg", "autodiff/neg.py"), ("relu", "autodiff/relu.py")] * (count // 3)
    start = time.monotonic()
    runs = pool._attempts(1, tmp_path, items, tmp_path, None, budgets)
    took = time.monotonic() - start
    assert all(r.problem is not None and r.problem.kind == Kind.TIMEOUT for r in runs), runs
    assert len(killed) <= len(items) + 1, len(killed)
    assert took < (2 * len(items) + 1 if budgets is None else budgets) * budget + 3 * budget, took


def test_a_folder_nested_past_the_recursion_limit_is_removed(tmp_path: Path) -> None:
    """Without namespaces, a worker's 5000-deep chain of folders in its job folder is removed:
    the grader's clean-up raises no RecursionError, which would end the class run."""
    top = tmp_path / "job"
    top.mkdir()
    fd = os.open(top, os.O_RDONLY)
    try:
        for _ in range(5000):
            os.mkdir("d", dir_fd=fd)
            inner = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
    finally:
        os.close(fd)
    _scratch.remove_tree(top)
    assert not top.exists()
