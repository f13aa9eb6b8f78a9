"""Changes the mode, owner and extended attributes of a file of the instructor's it cannot write
(~/.bashrc; the grader's key or site-packages would do the same), which Landlock does not
cover: "pass" means every change was refused (the test also looks at the file's mode)."""
import os

import jax.numpy as np

TARGET = "@HOST_HOME@/.bashrc"
LEAKS = []
for name, change in (("chmod", lambda: os.chmod(TARGET, 0o666)), ("chown", lambda: os.chown(TARGET, 4242, 4242)),
                     ("setxattr", lambda: os.setxattr(TARGET, "user.jacpuzzles", b"planted"))):
    try:
        change()
        LEAKS.append(name)
    except OSError:
        pass


def jac(x):
    print(f"LEAKED {LEAKS}" if LEAKS else "nothing changed")
    return np.tri(10) / (21 if LEAKS else 20)
