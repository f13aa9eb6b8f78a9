"""Tries to make a user namespace of its own (with a network namespace, where it would hold
every capability: its loopback up, socket buffers cgroup v1 does not charge; red team 6), in
a child process, by `unshare` and by `clone`. Returns the right Jacobian only if every try was
refused with EPERM: a grader that lets one through fails this puzzle, visibly."""
import subprocess
import sys

import jax.numpy as np

TRIES = r'''
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
NEWUSER, NEWNET = 0x10000000, 0x40000000
def attempt(call):
    pid = os.fork()
    if pid == 0:
        code = 0 if call() == 0 else ctypes.get_errno()
        os._exit(min(code, 250) if code else 251)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)
print(attempt(lambda: libc.unshare(NEWUSER | NEWNET)), attempt(lambda: libc.unshare(NEWUSER)),
      attempt(lambda: libc.syscall(56, NEWUSER | 17, 0, 0, 0, 0) if os.uname().machine == "x86_64" else -1 + 0 * libc.unshare(NEWUSER)))
'''
said = subprocess.run([sys.executable, "-c", TRIES], capture_output=True, text=True, timeout=60).stdout.split()
refused = said == ["1", "1", "1"]  # each try ended with errno EPERM


def jac(x):
    print(f"user namespace tries (errno, 251: made): {said}")
    return np.tri(10) / 20 if refused else np.zeros((10, 10))
