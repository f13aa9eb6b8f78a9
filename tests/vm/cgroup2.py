"""Run inside the VM of tests/vm/boot.sh (cgroup v2, as root): what the grader's control groups
do on a real kernel, printed as one JSON line `FACTS {...}` for tests/test_cgroup2_vm.py.

    python3 tests/vm/cgroup2.py [--grade]

`--grade` also grades two submissions of the grading corpus end to end (slow under emulation).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from checker.grading import _cgroups  # noqa: E402

GRAB = "import time; b = bytearray(b'x') * (700 * 1024 * 1024); print('ok', flush=True); time.sleep(30)"
MB = 1024 * 1024


def _in_job(folders: dict[str, Path], action: str) -> str:
    """Run `action` (Python source printing its finding) in a child moved into the job's groups."""
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(read)
        try:
            _cgroups.join(folders, os.getpid())
            out: dict[str, object] = {}
            exec(action, {"out": out, "os": os, "subprocess": subprocess, "sys": sys, "GRAB": GRAB})
            os.write(write, json.dumps(out).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        text = pipe.read()
    os.waitpid(child, 0)
    return text


MEMORY = """
children = [subprocess.Popen([sys.executable, "-c", GRAB], stdout=subprocess.PIPE) for _ in range(3)]
out["got"] = sum(1 for c in children if c.stdout.readline().strip() == b"ok")
for c in children:
    c.kill()
    c.wait()
"""

PIDS = """
started = []
try:
    for _ in range(100):
        pid = os.fork()
        if pid == 0:
            import time; time.sleep(20); os._exit(0)
        started.append(pid)
except OSError as exc:
    out["error"] = exc.strerror
out["started"] = len(started)
for pid in started:
    os.kill(pid, 9); os.waitpid(pid, 0)
"""


def main() -> None:
    facts: dict[str, object] = {"own": Path("/proc/self/cgroup").read_text().strip()}
    groups, why_not = _cgroups.probe(os.getpid())
    facts["probe"] = groups.describe() if groups is not None else why_not
    if groups is None:
        print("FACTS " + json.dumps(facts), flush=True)
        return
    facts["folder"] = str(groups.folders["unified"])
    facts["handed_down"] = (groups.folders["unified"] / "cgroup.subtree_control").read_text().split()

    memory = _cgroups.make(groups, "memory", 1024 * MB, 0)
    facts["memory_max"] = (memory["memory"] / "memory.max").read_text().strip()
    facts["memory_child"] = json.loads(_in_job(memory, MEMORY))
    facts["memory_release"] = _cgroups.release(memory)
    facts["memory_removed"] = not memory["memory"].exists()

    pids = _cgroups.make(groups, "pids", 0, 20)
    facts["pids_child"] = json.loads(_in_job(pids, PIDS))
    _cgroups.release(pids)

    _cgroups.remove(groups)
    facts["zygote_group_removed"] = not groups.folders["unified"].exists()

    if "--grade" in sys.argv:
        facts["grade"] = _grade()
    print("FACTS " + json.dumps(facts), flush=True)


def _grade() -> dict[str, object]:
    """`jacpuzzles grade` on the corpus's tree_memory and fork_bomb submissions."""
    subs, out = Path("/run/subs"), Path("/run/out")
    for name in ("tree_memory", "fork_bomb"):
        shutil.copytree(REPO / "tests" / "grading_corpus" / name, subs / name)
    start = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "checker", "grade", str(subs), "--out", str(out), "--assignment",
         str(REPO / "tests" / "grading_corpus" / "assignment.toml"), "--timeout", "120", "--memory-mb", "1024",
         "--jobs", "1"],
        capture_output=True, text=True, cwd="/run", stdin=subprocess.DEVNULL,
        env={**os.environ, "COLUMNS": "200", "JACPUZZLES_CACHE": "/run/cache", "PYTHONPATH": str(REPO)},
    )
    found: dict[str, object] = {
        "status": result.returncode,
        "seconds": round(time.monotonic() - start),
        "isolation": [line for line in result.stderr.splitlines() if line.startswith("isolation:")],
        "stderr": result.stderr[-1500:],
    }
    for name in ("tree_memory", "fork_bomb"):
        try:
            doc = json.loads((out / f"{name}.json").read_text())
            found[name] = next(
                (
                    {"status": r["status"], "message": r["message"], "output": r["output"][:300]}
                    for r in doc["results"]
                    if r["puzzle"] == "cumsum"
                ),
                None,
            )
        except (OSError, ValueError) as exc:
            found[name] = str(exc)
    return found


if __name__ == "__main__":
    main()
