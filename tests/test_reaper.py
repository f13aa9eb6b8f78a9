"""The reaper's watch over a worker where nothing else bounds its tasks (`_zygote._wait`): a
process that starts more threads than the limit is killed, and says how many it held."""

from __future__ import annotations

import os
import threading
import time

from checker.grading import _zygote


def _start_threads(count: int) -> None:
    threading.stack_size(64 * 1024)
    done = threading.Event()
    for _ in range(count):
        threading.Thread(target=done.wait, daemon=True).start()
    time.sleep(60)


def test_a_worker_holding_more_threads_than_the_limit_is_killed() -> None:
    child = os.fork()
    if child == 0:
        try:
            _start_threads(400)
        finally:
            os._exit(0)
    start = time.monotonic()
    status, held = _zygote._wait(child, 300)
    assert held > 300, held
    assert os.waitstatus_to_exitcode(status) == -9
    assert time.monotonic() - start < 30


def test_a_worker_within_the_limit_is_only_waited_for() -> None:
    child = os.fork()
    if child == 0:
        threading.Thread(target=time.sleep, args=(0.2,)).start()
        time.sleep(0.5)
        os._exit(3)
    status, held = _zygote._wait(child, 300)
    assert held == 0 and os.waitstatus_to_exitcode(status) == 3
