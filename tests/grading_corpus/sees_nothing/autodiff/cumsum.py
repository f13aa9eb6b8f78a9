"""Looks for everything a worker must not see; returns the right Jacobian only when it found
nothing, and prints what it found. Leaves files in /tmp, /var/tmp and /dev/shm."""
import glob
import os
import socket

import jax.numpy as np

SECRETS = {
    "reference answers": ["@KIT@/solutions/autodiff/cumsum.py", "@KIT@/checker/_data/solutions/autodiff/cumsum.py"],
    "TensorFlow's recorded Jacobians": ["@KIT@/checker/_data/tf_recorded.npz"],
    "a classmate's folder": ["@SUBS@/right/autodiff/cumsum.py"],
    "OUT": ["@OUT@/right.json", "@OUT@/right.txt"],
    "the cache": ["@CACHE@"],
}


def _found():
    seen = []
    for what, paths in SECRETS.items():
        for path in paths:
            try:
                if os.path.isdir(path):
                    if os.listdir(path):
                        seen.append(f"{what} ({path})")
                    continue
                with open(path, "rb") as f:
                    if f.read(1):
                        seen.append(f"{what} ({path})")
            except OSError:
                pass
    for path in glob.glob("/tmp/jacpuzzles-grade-*/*") + glob.glob("/tmp/jacpuzzles-grade-*/*/*"):
        if not os.path.basename(path).startswith("job") and "code" not in path and "attempt" not in path:
            seen.append(f"the grader's scratch ({path})")
    others = [p for p in os.listdir("/proc") if p.isdigit() and int(p) > 2]
    if others:
        seen.append(f"other processes ({len(others)})")
    for leftover in ("/tmp", "/var/tmp", "/dev/shm"):
        if os.path.isdir(leftover) and any(n.startswith("leftover-") and n != f"leftover-{os.getpid()}" for n in os.listdir(leftover)):
            seen.append(f"another worker's leftovers in {leftover}")
    try:  # listing interfaces takes a netlink socket, which the grader's workers may not open
        interfaces = [name for _, name in socket.if_nameindex() if name != "lo"]
    except PermissionError:
        interfaces = []
    if interfaces:
        seen.append(f"the host's network interfaces ({interfaces[:3]})")
    try:
        socket.create_connection(("1.1.1.1", 53), timeout=1).close()
        seen.append("the network")
    except OSError:
        pass
    sockets = [p for p in glob.glob("/run/**", recursive=True) + glob.glob("/var/run/**", recursive=True) if os.path.exists(p) and not os.path.isdir(p)]
    if sockets:
        seen.append(f"host files in /run ({sockets[:2]})")
    return seen


def jac(x):
    for folder in ("/tmp", "/var/tmp", "/dev/shm"):
        try:
            with open(os.path.join(folder, f"leftover-{os.getpid()}"), "w") as f:
                f.write("x")
        except OSError:
            pass
    seen = _found()
    print("saw: " + ("; ".join(seen) if seen else "nothing"))
    return np.zeros((10, 10)) if seen else np.tri(10) / 20
