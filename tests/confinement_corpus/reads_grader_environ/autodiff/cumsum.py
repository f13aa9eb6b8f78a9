"""Looks for the grader's secret in every process's environ, cmdline and memory it can open
(its parent's, the grader's, all of /proc): "pass" means it found none."""
import os

import jax.numpy as np

SECRET = b"@SECRET@"
LEAKS = []
try:
    listed = {int(p) for p in os.listdir("/proc") if p.isdigit()}
except OSError:  # Landlock: only its own /proc
    listed = set()
pids = {os.getppid(), 1, *listed, *range(os.getpid() - 200, os.getpid())}
for pid in pids:
    if pid == os.getpid():
        continue
    for name in ("environ", "cmdline"):
        try:
            with open(f"/proc/{pid}/{name}", "rb") as f:
                if SECRET in f.read():
                    LEAKS.append(f"/proc/{pid}/{name}")
        except OSError:
            pass
    try:
        with open(f"/proc/{pid}/mem", "rb"):
            LEAKS.append(f"/proc/{pid}/mem opened")
    except OSError:
        pass


def jac(x):
    print(f"LEAKED {LEAKS[:5]}" if LEAKS else "nothing found")
    return np.tri(10) / (21 if LEAKS else 20)
