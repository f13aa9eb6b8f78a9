"""Gives threads descriptor tables, and descriptor limits, of their own: made by a `clone`
without CLONE_FILES (red team RT18: 30 such threads held 3840 descriptors, their user's whole
pipe quota), or unshared later by `close_range` with CLOSE_RANGE_UNSHARE (RT20). Each clone'd
thread returns at once. "pass" means no thread got a table of its own either way."""
import ctypes
import mmap
import platform
import threading

import jax.numpy as np

made = 0
libc = ctypes.CDLL(None, use_errno=True)
if platform.machine() == "x86_64":
    page = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    page.write(bytes.fromhex("31c0c3"))  # the thread's function: return 0
    start = ctypes.addressof(ctypes.c_char.from_buffer(page))
    libc.clone.restype = ctypes.c_int
    libc.clone.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
    flags = 0x100 | 0x200 | 0x800 | 0x10000  # CLONE_VM, FS, SIGHAND, THREAD: no CLONE_FILES
    stacks = [ctypes.create_string_buffer(1 << 16) for _ in range(8)]
    for stack in stacks:
        top = (ctypes.addressof(stack) + (1 << 16) - 64) & ~15
        made += libc.clone(start, top, flags, None) > 0
unshared = []


def _unshare() -> None:
    # close_range(~0U, ~0U, CLOSE_RANGE_UNSHARE): closes nothing, unshares this thread's table.
    unshared.append(libc.syscall(436, ctypes.c_uint(0xFFFFFFFF), ctypes.c_uint(0xFFFFFFFF), ctypes.c_uint(2)) == 0)


thread = threading.Thread(target=_unshare)
thread.start()
thread.join()
made += sum(unshared)
leaked = made > 0


def jac(x):
    print(f"LEAKED: {made} threads with tables of their own" if leaked else "no thread with a table of its own")
    return np.tri(10) / (21 if leaked else 20)
