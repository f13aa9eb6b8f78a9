"""Starts processes until it cannot (once), then returns the right Jacobian: the grader must
survive, the limit must hold, and every process must be gone after grading."""
import subprocess

import jax.numpy as np

started: list[object] = []


def jac(x):
    if not started:
        try:
            for _ in range(5000):
                started.append(subprocess.Popen(["sleep", "600"]))
            print(f"no limit: started {len(started)}")
        except OSError:
            print(f"limit reached after {len(started)}")
    return np.tri(10) / 20
