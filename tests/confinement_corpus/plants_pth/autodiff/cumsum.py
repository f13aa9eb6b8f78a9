"""Plants a `.pth` (run by every later Python) in site-packages, the user site-packages of $HOME
and of /tmp/.local, and a line in ~/.bashrc: "pass" means every write was refused (the test also
looks for the files on the host)."""
import os
import site
import sys
import sysconfig

import jax.numpy as np

MARK = "jacpuzzles_planted_@TAG@"
version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
TARGETS = [os.path.join(sysconfig.get_paths()["purelib"], f"{MARK}.pth"), *(os.path.join(p, f"{MARK}.pth") for p in site.getsitepackages()),
           os.path.join(os.path.expanduser("~"), ".local", "lib", version, "site-packages", f"{MARK}.pth"),
           f"/tmp/.local/lib/{version}/site-packages/{MARK}.pth", f"/tmp/{MARK}.pth", "@HOST_HOME@/.bashrc"]
LEAKS = []
for path in TARGETS:
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "a") as f:
            f.write(f"import os  # {MARK}\n")
        if not path.startswith(("/tmp/", os.environ.get("HOME", "/nonexistent"))):  # its own HOME is its own;
            LEAKS.append(path)  # in namespaces /tmp is its own too: the test looks at the host's
    except OSError:
        pass


def jac(x):
    print(f"LEAKED {LEAKS}" if LEAKS else "nothing planted")
    return np.tri(10) / (21 if LEAKS else 20)
