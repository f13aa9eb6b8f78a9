"""Uses what root keeps in a container (Docker's default capabilities include MKNOD and NET_RAW;
workers without a uid of their own run as root): makes device nodes for memory and the disk in
its HOME, and opens a raw socket. "pass" means all were refused."""
import os
import socket
import stat

import jax.numpy as np

LEAKS = []
home = os.environ.get("HOME", "/tmp")
for name, kind, device in (("mem", stat.S_IFCHR, os.makedev(1, 1)), ("disk", stat.S_IFBLK, os.makedev(254, 0)), ("sda", stat.S_IFBLK, os.makedev(8, 0))):
    try:
        os.mknod(os.path.join(home, name), 0o600 | kind, device)
        LEAKS.append(f"mknod {name}")
    except OSError:
        pass
try:
    with socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP):
        LEAKS.append("raw socket")
except OSError:
    pass


def jac(x):
    print(f"LEAKED {LEAKS}" if LEAKS else "nothing made")
    return np.tri(10) / (21 if LEAKS else 20)
