"""Watches files outside its reach (Landlock covers neither fanotify nor inotify): the grader's
user's HOME, the folder above its own job folder (where the grader makes the next job's) and /:
a root worker's fanotify permission events made the grader's opens fail or hang. "pass" means
no watch could be made at all."""
import ctypes
import os

import jax.numpy as np

libc = ctypes.CDLL(None, use_errno=True)
LEAKS = []
FAN_CLASS_CONTENT, FAN_CLASS_NOTIF = 0x4, 0x0
for name, flags in (("fanotify_init content", FAN_CLASS_CONTENT), ("fanotify_init notif", FAN_CLASS_NOTIF)):
    fd = libc.fanotify_init(flags, os.O_RDONLY)
    if fd >= 0:
        LEAKS.append(name)
        os.close(fd)
for name, make in (("inotify_init", lambda: libc.inotify_init()), ("inotify_init1", lambda: libc.inotify_init1(0))):
    fd = make()
    if fd >= 0:
        LEAKS.append(name)
        for folder in ("@HOST_HOME@", os.path.dirname(os.getcwd()), os.path.dirname(os.environ.get("HOME", "/")), "/"):
            if libc.inotify_add_watch(fd, folder.encode(), 0xFFF) >= 0:
                LEAKS.append(f"inotify_add_watch {folder}")
        os.close(fd)


def jac(x):
    print(f"LEAKED {LEAKS}" if LEAKS else "nothing watched")
    return np.tri(10) / (21 if LEAKS else 20)
