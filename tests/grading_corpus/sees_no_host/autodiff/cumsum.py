"""Looks for what a worker's file system must not hold (it is an allow-list: Python, the system's
libraries, the kit's `checker` package, its own folder): the kit's git history (`git show` of a
reference answer), its other folders, other copies of the kit, anything in /work, /home, /root,
/srv, /opt, /mnt, and any `solutions` folder or `.npz` file it can reach. Returns the right
Jacobian only when it found nothing; prints what it found."""
import os
import subprocess
import sys

import jax.numpy as np

KIT = "@KIT@"


def _kit_from_modules():
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None) or ""
        if f"{os.sep}checker{os.sep}" in path:
            return os.path.dirname(os.path.dirname(path))
    return KIT


def _allowed():
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, os.getcwd(), os.path.join(_kit_from_modules(), "checker"), "/usr", "/tmp", "/var/tmp"}
    return [os.path.realpath(r) for r in roots]


def _fine(path, allowed):
    path = os.path.realpath(path)
    return any(path == a or a.startswith(path + "/") or path.startswith(a + "/") for a in allowed)


def _found():
    seen = []
    kit = _kit_from_modules()
    for name in (".git", "solutions", "tests", "docs", "puzzles", "pyproject.toml"):
        if os.path.lexists(os.path.join(kit, name)):
            seen.append(f"the kit's {name}")
    for data in ("solutions", "tf_recorded.npz"):
        path = os.path.join(kit, "checker", "_data", data)
        if os.path.isdir(path) and os.listdir(path) or os.path.isfile(path) and os.path.getsize(path):
            seen.append(f"the kit's {data}")
    try:
        shown = subprocess.run(["git", "-c", "safe.directory=*", "-C", kit, "show", "HEAD:solutions/autodiff/cumsum.py"],
                               capture_output=True, timeout=5, env={"HOME": "/tmp", "PATH": "/usr/bin:/bin"})
        if shown.returncode == 0 and shown.stdout:
            seen.append("the kit's git history")
    except (OSError, subprocess.SubprocessError):
        pass
    allowed = _allowed()
    for folder in ("/", "/work", "/home", "/root", "/srv", "/opt", "/mnt", "/media", "/var", "/etc", os.path.dirname(kit), kit):
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            path = os.path.join(folder, name)
            if folder == "/etc" or folder == "/":
                continue  # a few files of /etc, and the system's folders: walked below
            if not _fine(path, allowed):
                seen.append(f"{path}")
    skip = {"/proc", "/sys", "/dev", "/usr", *(os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix))}
    for top, dirs, files in os.walk("/"):
        dirs[:] = [d for d in dirs if os.path.join(top, d) not in skip]
        if os.path.basename(top) == "solutions" and (files or dirs):
            seen.append(f"a solutions folder ({top})")
        for f in files:  # the kit's recording is there, emptied: /dev/null bound over it
            if f.endswith(".npz") and os.path.isfile(os.path.join(top, f)) and os.path.getsize(os.path.join(top, f)):
                seen.append(os.path.join(top, f))
        if len(seen) > 20:
            break
    return seen


def jac(x):
    seen = _found()
    print("saw: " + ("; ".join(seen[:10]) if seen else "nothing"))
    return np.zeros((10, 10)) if seen else np.tri(10) / 20
