"""Sends bytes to a service of the instructor's on 127.0.0.1 and to an abstract unix socket (the
test listens on both): "pass" means neither could be reached."""
import socket

import jax.numpy as np

LEAKS = []
for family, address in ((socket.AF_INET, ("127.0.0.1", int("@PORT@"))), (socket.AF_UNIX, "\0@ABSTRACT@")):
    try:
        with socket.socket(family, socket.SOCK_STREAM) as s:
            s.settimeout(2)
            s.connect(address)
            s.sendall(b"from a submission")
            LEAKS.append(repr(address))
    except OSError:
        pass


def jac(x):
    print(f"LEAKED {LEAKS}" if LEAKS else "nothing reached")
    return np.tri(10) / (21 if LEAKS else 20)
