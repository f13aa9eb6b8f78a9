"""Changes the metadata of what its stdin and stdout are, and of /dev/null: a root worker whose
stdin was the host's /dev/null set its times, and its mode 000 would break the machine. Every
change is to the value it already has. "pass" means stdin and stdout are not the host's
/dev/null and no mode or time could be set."""
import os
import stat

import jax.numpy as np

LEAKS = []
for fd in (0, 1):
    status = os.fstat(fd)
    if stat.S_ISCHR(status.st_mode):
        LEAKS.append(f"fd {fd} is a device ({os.major(status.st_rdev)}, {os.minor(status.st_rdev)})")
    for name, change in (("fchmod", lambda: os.fchmod(fd, stat.S_IMODE(status.st_mode))),
                         ("futimens", lambda: os.utime(fd, ns=(status.st_atime_ns, status.st_mtime_ns)))):
        try:
            change()
            LEAKS.append(f"{name} fd {fd}")
        except OSError:
            pass
if os.path.exists("/dev/null"):
    status = os.stat("/dev/null")
    try:
        os.utime("/dev/null", ns=(status.st_atime_ns, status.st_mtime_ns))
        LEAKS.append("utime /dev/null")
    except OSError:
        pass


def jac(x):
    print(f"LEAKED {LEAKS}" if LEAKS else "no metadata changed")
    return np.tri(10) / (21 if LEAKS else 20)
