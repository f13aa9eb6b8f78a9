"""Run inside the container of tests/test_container.py (root, the engine's default capabilities
and seccomp profile): what the kernel grants here, then the confinement corpus and an honest
class graded end to end, printed as one JSON line `FACTS {...}`.

    python3 tests/container/grade.py
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from checker.grading import _landlock, _linux  # noqa: E402 - importable once the checkout is on the path
from tests.test_confinement import (  # noqa: E402 - as above
    ASSIGNMENT,
    CASES,
    SECRET,
    _Listener,
    _planted,
    bashrc_changed,
    write_corpus,
)

HONEST = ("honest_ana", "honest_ben")
# Attacks on what only a container's root has, graded beside the corpus's.
OWN_CASES = Path(__file__).resolve().parent / "cases"
PR_GET_SECCOMP = 21


def _errno_of(call: str, flags: int) -> str:
    """What `call(flags)` gets here, in a child so this process keeps its namespaces: "allowed",
    or the errno's name."""
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(read)
        libc = ctypes.CDLL(None, use_errno=True)
        status = getattr(libc, call)(flags)
        os.write(write, (b"allowed" if status == 0 else os.strerror(ctypes.get_errno()).encode()))
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        found = pipe.read().decode()
    os.waitpid(child, 0)
    return found


def _kernel() -> dict[str, object]:
    """What the container grants a process of root's: capabilities, seccomp, namespaces, Landlock."""
    status = dict(line.split(":\t", 1) for line in Path("/proc/self/status").read_text().splitlines() if ":\t" in line)
    libc = ctypes.CDLL(None, use_errno=True)
    return {
        "uid": os.geteuid(),
        "cap_eff": status["CapEff"].strip(),
        "seccomp_mode": int(libc.prctl(PR_GET_SECCOMP, 0, 0, 0, 0)),
        "unshare_mount_pid_net_ipc": _errno_of("unshare", _linux.CLONE_NEWNS | _linux.CLONE_NEWPID
                                               | _linux.CLONE_NEWNET | _linux.CLONE_NEWIPC),
        "unshare_user": _errno_of("unshare", _linux.CLONE_NEWUSER),
        "landlock_abi": _landlock.abi(),
    }


def _grade(root: Path, listener: _Listener) -> dict[str, object]:
    """The corpus and two honest students, graded in one run as root in this container."""
    home = root / "home"
    home.mkdir()
    (home / ".bashrc").write_text("# the instructor's\n")
    victim = subprocess.Popen(["sleep", "300"])
    tag = f"{os.getpid()}_container"
    values = {"@KIT@": str(REPO), "@SECRET@": SECRET, "@PORT@": str(listener.port), "@ABSTRACT@": listener.abstract,
              "@VICTIM@": str(victim.pid), "@TAG@": tag, "@HOST_HOME@": str(home)}
    subs = root / "submissions"
    write_corpus(subs, values)
    for case in sorted(OWN_CASES.iterdir()):
        shutil.copytree(case, subs / case.name)
    for name in HONEST:
        (subs / name / "autodiff").mkdir(parents=True)
        for puzzle in ("cumsum", "neg", "relu"):
            shutil.copy(REPO / "solutions" / "autodiff" / f"{puzzle}.py", subs / name / "autodiff" / f"{puzzle}.py")
    out = root / "out"
    command = [sys.executable, "-m", "checker", "grade", str(subs), "--out", str(out), "--assignment", str(ASSIGNMENT),
               "--timeout", "5", "--jobs", "2"]
    start = time.monotonic()
    try:
        result = subprocess.run(command, check=False, capture_output=True, text=True, cwd=REPO,
                                stdin=subprocess.DEVNULL, timeout=500,
                                env={**os.environ, "HOME": str(home), "COLUMNS": "1000", "GRADER_SECRET": SECRET})
        alive = victim.poll() is None
    finally:
        victim.kill()
        victim.wait()
    seconds = round(time.monotonic() - start, 1)
    entries = {}
    for path in sorted(out.glob("*.json")):
        if path.name.startswith("summary"):
            continue
        doc = json.loads(path.read_text())
        entries[path.stem] = {"score": doc["score"], "max_score": doc["max_score"],
                              "results": {r["puzzle"]: {"status": r["status"], "message": r.get("message", "")[:300],
                                                        "output": r.get("output", "")[:300]} for r in doc["results"]}}
    secret_in = [str(p) for p in out.rglob("*") if p.is_file() and SECRET.encode() in p.read_bytes()]
    lines = result.stderr.splitlines()
    return {"status": result.returncode, "seconds": seconds,
            "isolation": [line for line in lines if line.startswith("isolation:")],
            "stderr": result.stderr[-3000:], "entries": entries, "connections": listener.connections,
            "victim_alive": alive,
            "planted": _planted(tag), "bashrc": (home / ".bashrc").read_text(),
            "bashrc_changed": bashrc_changed(home / ".bashrc"), "secret_in_out": secret_in}


def _without_landlock(root: Path) -> dict[str, object]:
    """One honest student, Landlock turned off: with namespaces refused too, the grader must
    refuse to start (exit 2), never grade unconfined."""
    subs = root / "alone" / HONEST[0] / "autodiff"
    subs.mkdir(parents=True)
    shutil.copy(REPO / "solutions" / "autodiff" / "cumsum.py", subs / "cumsum.py")
    out = root / "alone-out"
    command = [sys.executable, "-m", "checker", "grade", str(root / "alone"), "--out", str(out), "--assignment",
               str(ASSIGNMENT), "--timeout", "5"]
    result = subprocess.run(command, check=False, capture_output=True, text=True, cwd=REPO, stdin=subprocess.DEVNULL,
                            timeout=300, env={**os.environ, "JACPUZZLES_NO_LANDLOCK": "1", "COLUMNS": "1000"})
    return {"status": result.returncode, "stderr": result.stderr[-2000:],
            "graded": (out / f"{HONEST[0]}.json").exists()}


def main() -> int:
    facts: dict[str, object] = {"kernel": _kernel(), "cases": [*CASES, *sorted(p.name for p in OWN_CASES.iterdir())],
                                "honest": list(HONEST)}
    listener = _Listener()
    root = Path(tempfile.mkdtemp(prefix="jacpuzzles-container-"))
    try:
        facts["grade"] = _grade(root, listener)
        facts["without_landlock"] = _without_landlock(root)
    finally:
        listener.close()
        shutil.rmtree(root, ignore_errors=True)
    print("FACTS " + json.dumps(facts), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
