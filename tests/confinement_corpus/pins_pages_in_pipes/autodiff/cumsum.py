"""Pins memory in a pipe with vmsplice (red team, round 10: one byte of each 2 MB huge page
spliced into pipes kept 3 GB alive after the worker unmapped it, past --memory-mb as a plain
user). "pass" means vmsplice was refused."""
import ctypes
import mmap
import os

import jax.numpy as np

LEAKS = []


class _IoVec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("length", ctypes.c_size_t)]


_libc = ctypes.CDLL(None, use_errno=True)
page = mmap.mmap(-1, 1 << 21)
page[0] = 1
read_end, write_end = os.pipe()
vector = _IoVec(ctypes.addressof(ctypes.c_char.from_buffer(page)), 1)
if _libc.vmsplice(write_end, ctypes.byref(vector), 1, 0) >= 0:
    LEAKS.append("vmsplice")
del vector


def jac(x):
    print(f"LEAKED {LEAKS}" if LEAKS else "no vmsplice")
    return np.tri(10) / (21 if LEAKS else 20)
