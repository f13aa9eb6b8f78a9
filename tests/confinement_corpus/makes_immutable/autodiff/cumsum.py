"""Makes a file and a folder of its TMPDIR immutable or append-only (FS_IOC_SETFLAGS, which
needs CAP_LINUX_IMMUTABLE; Landlock does not cover it on a regular file): they would outlive the
grader's clean-up. A flag that was set is cleared at once. "pass" means every flag was refused."""
import fcntl
import os
import struct
import tempfile

import jax.numpy as np

FS_IOC_GETFLAGS, FS_IOC_SETFLAGS = 0x80086601, 0x40086602
FS_APPEND_FL, FS_IMMUTABLE_FL = 0x20, 0x10
LEAKS = []
folder = os.path.join(tempfile.gettempdir(), "kept")
os.makedirs(folder, exist_ok=True)
with open(os.path.join(folder, "file"), "w") as f:
    f.write("kept")
for path in (os.path.join(folder, "file"), folder):
    fd = os.open(path, os.O_RDONLY)
    try:
        before = struct.unpack("l", fcntl.ioctl(fd, FS_IOC_GETFLAGS, struct.pack("l", 0)))[0]
    except OSError:  # a file system without flags
        os.close(fd)
        continue
    for name, flag in (("immutable", FS_IMMUTABLE_FL), ("append-only", FS_APPEND_FL)):
        try:
            fcntl.ioctl(fd, FS_IOC_SETFLAGS, struct.pack("l", before | flag))
        except OSError:
            continue
        LEAKS.append(f"{name} {os.path.basename(path)}")
        fcntl.ioctl(fd, FS_IOC_SETFLAGS, struct.pack("l", before))
    os.close(fd)


def jac(x):
    print(f"LEAKED {LEAKS}" if LEAKS else "no flag set")
    return np.tri(10) / (21 if LEAKS else 20)
