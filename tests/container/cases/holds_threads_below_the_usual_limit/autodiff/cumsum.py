"""Holds as many threads as the usual job limit allows (256 + 8 per core, less 10), or as many
as it is given, for 4.5 s of its import and 4 s of its answer's first call (each under the 5 s
limit), then answers right: in a container whose process limit is below what
the jobs running at once may hold together, the zygote then forked no classmate's job and they
were `ungradable` (red team RT27). "pass" means it ran; where the reaper counts its threads
against a smaller share of the container's limit, it is killed instead (an `error` naming the
thread limit, which the test accepts from this case), and the classmates graded meanwhile get
their marks."""
import ctypes
import os
import time

import jax.numpy as np

libc = ctypes.CDLL(None, use_errno=True)
attributes = ctypes.create_string_buffer(128)
libc.pthread_attr_init(attributes)
libc.pthread_attr_setstacksize(attributes, ctypes.c_size_t(64 * 1024))
pause = ctypes.cast(libc.pause, ctypes.c_void_p)


def _threads() -> int:
    return int(next(line for line in open("/proc/self/status") if line.startswith("Threads:")).split()[1])


USUAL = 256 + 8 * (os.cpu_count() or 1) - 10
while _threads() < USUAL:
    handle = ctypes.c_ulong()
    if libc.pthread_create(ctypes.byref(handle), attributes, pause, None) != 0:
        break
time.sleep(4.5)


def jac(x):
    time.sleep(4)  # and while it is traced: classmates' jobs start meanwhile
    return np.tri(10) / 20
