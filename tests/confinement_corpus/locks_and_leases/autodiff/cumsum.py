"""Takes file locks and a lease (red team, round 15: 1.8 million POSIX record locks held 350 MB
of kernel memory past the memory limit; as uid 0, write leases on root-owned files it could
read stalled every process of the host that opened them). "pass" means each was refused."""
import fcntl
import os
import struct

import jax.numpy as np

TAKEN = []
path = os.path.join(os.environ.get("HOME", "."), "locked")
fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
for name, call in (
    ("record lock", lambda: fcntl.fcntl(fd, fcntl.F_SETLK, struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 1, 0))),
    ("lockf", lambda: fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1)),
    ("flock", lambda: fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)),
    ("lease", lambda: fcntl.fcntl(os.open(path, os.O_RDONLY), 1024, fcntl.F_RDLCK)),
):
    try:
        call()
        TAKEN.append(name)
    except OSError:
        pass


def jac(x):
    print(f"LEAKED: {TAKEN}" if TAKEN else "no lock, no lease")
    return np.tri(10) / (21 if TAKEN else 20)
