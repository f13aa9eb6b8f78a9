"""Asks the kernel for what no per-process limit counts (red team RT16): a context of Linux's
asynchronous I/O (`fs.aio-max-nr` is one quota for the whole machine), secret memory (mapped in
windows and unmapped again, it is held past the address-space limit), and a Landlock ruleset of
its own (rules added to it are kernel memory). "pass" means each was refused. Linux x86-64's
call numbers."""
import ctypes
import os

import jax.numpy as np

IO_SETUP, LANDLOCK_CREATE_RULESET, MEMFD_SECRET = 206, 444, 447
LANDLOCK_CREATE_RULESET_VERSION = 1
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
LEAKS = []
context = ctypes.c_ulong(0)
if libc.syscall(IO_SETUP, 8, ctypes.byref(context)) == 0:
    LEAKS.append("io_setup")
ruleset = libc.syscall(LANDLOCK_CREATE_RULESET, None, 0, LANDLOCK_CREATE_RULESET_VERSION)
if ruleset >= 0:
    LEAKS.append(f"landlock_create_ruleset (ABI {ruleset})")
secret = libc.syscall(MEMFD_SECRET, 0)
if secret >= 0:
    LEAKS.append("memfd_secret")
    os.close(secret)


def jac(x):
    print(f"LEAKED {LEAKS}" if LEAKS else "nothing made")
    return np.tri(10) / (21 if LEAKS else 20)
