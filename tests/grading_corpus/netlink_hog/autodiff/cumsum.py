"""Opens netlink route sockets, which need no privilege and no network, to park memory in
their queued replies outside the job's memory group (red team 7: 5.4 GB, not killed). Here it
only tries to open one: the right Jacobian comes back only if the socket was refused."""
import socket

import jax.numpy as np

try:
    socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0).close()
    said = "opened"
except PermissionError:
    said = "refused"
except OSError as exc:
    said = f"failed otherwise: {exc}"


def jac(x):
    print(f"netlink socket: {said}")
    return np.tri(10) / 20 if said == "refused" else np.zeros((10, 10))
