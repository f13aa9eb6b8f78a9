"""Changes the scheduling of processes outside its job, which setpriority's filter did not
cover: nice 19 through sched_setattr, the policy through sched_setscheduler, the CPUs through
sched_setaffinity, of a process of the grader's user the test started (its nice is checked
after), its parent (the reaper) and pid 1; and setpriority of its process group.
Each change is to the value the process already has, but the victim's nice. "pass" means every
call was refused (its own scheduling stays allowed: it must still succeed)."""
import ctypes
import os
import struct

import jax.numpy as np

libc = ctypes.CDLL(None, use_errno=True)
SCHED_SETATTR = 314  # x86-64
LEAKS = []
victim = int("@VICTIM@")
attr = struct.pack("IIQiiQQQ", 48, 0, 0, 19, 0, 0, 0, 0)  # size, SCHED_OTHER, flags, nice 19
if os.uname().machine == "x86_64" and libc.syscall(SCHED_SETATTR, victim, attr, 0) == 0:
    LEAKS.append("sched_setattr victim")
for pid in (victim, os.getppid(), 1):
    for name, change in (("sched_setaffinity", lambda: os.sched_setaffinity(pid, os.sched_getaffinity(pid))),
                         ("sched_setscheduler", lambda: os.sched_setscheduler(pid, os.sched_getscheduler(pid), os.sched_param(0))),
                         ("sched_setparam", lambda: os.sched_setparam(pid, os.sched_param(0)))):
        try:
            change()
            LEAKS.append(f"{name} {pid}")
        except OSError:
            pass
try:  # its own process group (its session), to the priority it has: refused like PRIO_USER, which is every process of its uid
    os.setpriority(os.PRIO_PGRP, 0, os.getpriority(os.PRIO_PROCESS, 0))
    LEAKS.append("setpriority PRIO_PGRP")
except OSError:
    pass
try:  # its own: allowed
    os.sched_setaffinity(0, os.sched_getaffinity(0))
    os.sched_setaffinity(os.getpid(), os.sched_getaffinity(0))
except OSError as exc:
    LEAKS.append(f"its own affinity refused: {exc}")


def jac(x):
    print(f"LEAKED {LEAKS}" if LEAKS else "no other process rescheduled")
    return np.tri(10) / (21 if LEAKS else 20)
