"""Sets an ACL on a file of the instructor's through Linux 6.13's setxattrat (an ACL granting
everyone everything is a chmod 0777; the older setxattr and chmod are refused), and tries the
other calls newer than those: a filter that names calls by its libseccomp's list lets through
every call that list is older than. "pass" means each was refused (the test also looks at the
file's mode)."""
import ctypes
import struct

import jax.numpy as np

TARGET = b"@HOST_HOME@/.bashrc"
AT_FDCWD = -100
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


def _acl(mode):
    # posix_acl_xattr version 2: user::, group::, other:: entries with the bits of `mode`.
    entries = ((0x01, (mode >> 6) & 7), (0x04, (mode >> 3) & 7), (0x20, mode & 7))
    return struct.pack("<I", 2) + b"".join(struct.pack("<HHI", tag, perm, 0xFFFFFFFF) for tag, perm in entries)


value = ctypes.create_string_buffer(_acl(0o777), 28)
args = ctypes.create_string_buffer(struct.pack("<QII", ctypes.addressof(value), 28, 0), 16)  # struct xattr_args
LEAKS = []
if libc.syscall(ctypes.c_long(463), ctypes.c_long(AT_FDCWD), ctypes.c_char_p(TARGET), ctypes.c_long(0),
                ctypes.c_char_p(b"system.posix_acl_access"), args, ctypes.c_long(16)) == 0:
    LEAKS.append("setxattrat")
if libc.syscall(ctypes.c_long(466), ctypes.c_long(AT_FDCWD), ctypes.c_char_p(TARGET), ctypes.c_long(0),
                ctypes.c_char_p(b"user.jacpuzzles")) == 0:
    LEAKS.append("removexattrat")


def jac(x):
    print(f"LEAKED {LEAKS}" if LEAKS else "nothing changed")
    return np.tri(10) / (21 if LEAKS else 20)
