"""Starts threads until it is refused, up to 600 (red team, round 10: 16,000 tasks from one
worker would leave no pid to anyone's fork). "pass" means a limit refused a thread before the
600th; where no limit of the kernel's counts a worker's threads, the reaper kills it instead
(an `error`, which the test accepts from this case alone, when it names the thread limit)."""
import threading

import jax.numpy as np

CAP = 600
done = threading.Event()
threading.stack_size(64 * 1024)
started = 0
try:
    while started < CAP:
        threading.Thread(target=done.wait, daemon=True).start()
        started += 1
except RuntimeError:  # "can't start new thread"
    pass
finally:
    done.set()
    threading.stack_size(0)


def jac(x):
    print(f"started {started} threads")
    return np.tri(10) / (21 if started >= CAP else 20)
