"""Uses what a worker running as root (a container, or no uid of its own) would hold: any
capability left (CapEff), reboot (without its magic numbers: EINVAL, not EPERM, would show
CAP_SYS_BOOT), acct of no file, new mount or network namespaces, setns, the new mount API.
"pass" means no capability was left and every call was refused with EPERM."""
import ctypes
import errno
import os

import jax.numpy as np

libc = ctypes.CDLL(None, use_errno=True)
LEAKS = []
for line in open("/proc/self/status"):
    if line.startswith(("CapEff:", "CapPrm:", "CapAmb:")) and int(line.split()[1], 16):
        LEAKS.append(line.strip())
CLONE_NEWNS, CLONE_NEWNET = 0x00020000, 0x40000000
calls = [("acct", lambda: libc.acct(b"")), ("unshare NEWNS", lambda: libc.unshare(CLONE_NEWNS)),
         ("unshare NEWNET", lambda: libc.unshare(CLONE_NEWNET)), ("setns", lambda: libc.setns(-1, 0))]
if os.uname().machine == "x86_64":  # reboot, fsopen, fspick, fsconfig, mount_setattr by number
    calls += [("reboot", lambda: libc.syscall(169, 0, 0, 0, 0)), ("fsopen", lambda: libc.syscall(430, b"tmpfs", 0)),
              ("fspick", lambda: libc.syscall(433, -100, b"/", 0)), ("fsconfig", lambda: libc.syscall(431, -1, 0, None, None, 0)),
              ("mount_setattr", lambda: libc.syscall(442, -1, None, 0, None, 0))]
for name, call in calls:
    result = call()
    if result >= 0:
        LEAKS.append(f"{name} worked")
        if name.startswith(("fsopen", "fspick")):
            os.close(result)
    elif ctypes.get_errno() != errno.EPERM:
        LEAKS.append(f"{name}: {os.strerror(ctypes.get_errno())}, not EPERM")


def jac(x):
    print(f"LEAKED {LEAKS}" if LEAKS else "no root power")
    return np.tri(10) / (21 if LEAKS else 20)
