"""Signals processes outside its job: its parent (the grader's reaper), pid 1, and a process of
the grader's user the test started: "pass" means every signal was refused."""
import os

import jax.numpy as np

LEAKS = []
for pid in (os.getppid(), 1, int("8167")):
    try:
        os.kill(pid, 0)
        LEAKS.append(pid)
    except OSError:
        pass


def jac(x):
    print(f"LEAKED {LEAKS}" if LEAKS else "nothing signalled")
    return np.tri(10) / (21 if LEAKS else 20)
