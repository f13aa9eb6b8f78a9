"""Changes the scheduling of a process of the grader's user outside its job (the one the test
started): its CPU affinity and its scheduling policy, each set to what it already is (harmless
if allowed; as that user, SCHED_IDLE or one busy core would starve the grader). The seccomp
filter refuses both on any pid but the worker's own (Landlock does not cover them; a pid
namespace of its own also hides the process, a uid of its own makes it another user's).
"pass" means both were refused."""
import os

import jax.numpy as np

VICTIM = int("@VICTIM@")
LEAKS = []
try:
    os.sched_setaffinity(VICTIM, os.sched_getaffinity(VICTIM))
    LEAKS.append("sched_setaffinity")
except OSError:
    pass
try:
    os.sched_setscheduler(VICTIM, os.sched_getscheduler(VICTIM), os.sched_getparam(VICTIM))
    LEAKS.append("sched_setscheduler")
except OSError:
    pass


def jac(x):
    print(f"LEAKED {LEAKS} of process {VICTIM}" if LEAKS else "no scheduling changed")
    return np.tri(10) / (21 if LEAKS else 20)
