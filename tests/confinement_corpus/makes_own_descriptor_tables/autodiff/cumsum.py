"""Makes threads without CLONE_FILES, each with a descriptor table, and a descriptor limit, of
its own (red team RT18: 30 such threads held 3840 descriptors, their user's whole pipe quota).
Each thread returns at once. "pass" means no such thread could be made."""
import ctypes
import mmap
import platform

import jax.numpy as np

made = 0
if platform.machine() == "x86_64":
    libc = ctypes.CDLL(None, use_errno=True)
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
leaked = made > 0


def jac(x):
    print(f"LEAKED: {made} threads with tables of their own" if leaked else "no thread with a table of its own")
    return np.tri(10) / (21 if leaked else 20)
