"""Makes System V shared memory, a System V message queue and a POSIX message queue, which
Landlock does not cover: outside an IPC namespace of its own a worker would reach a local
service's segments and queues, and memory left in a segment outlives the worker and the grader,
past every limit. "pass" means each was refused."""
import ctypes

import jax.numpy as np

IPC_PRIVATE, IPC_CREAT = 0, 0o1000
libc = ctypes.CDLL(None, use_errno=True)
LEAKS = [name for name, made in (("shmget", libc.shmget(IPC_PRIVATE, 1 << 20, IPC_CREAT | 0o600)),
                                 ("msgget", libc.msgget(IPC_PRIVATE, IPC_CREAT | 0o600)),
                                 ("semget", libc.semget(IPC_PRIVATE, 1, IPC_CREAT | 0o600)))
         if made >= 0]
try:
    rt = ctypes.CDLL("librt.so.1", use_errno=True)
    if rt.mq_open(b"/jacpuzzles-planted", 0o100 | 0o2, 0o666, None) >= 0:  # O_CREAT | O_RDWR
        LEAKS.append("mq_open")
        rt.mq_unlink(b"/jacpuzzles-planted")
except OSError:
    pass


def jac(x):
    print(f"LEAKED {LEAKS}" if LEAKS else "nothing made")
    return np.tri(10) / (21 if LEAKS else 20)
