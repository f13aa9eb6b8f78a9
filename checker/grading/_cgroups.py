"""Control groups for grading jobs: a memory limit over a job's whole process tree, and a
process limit.

Each job (one submission's attempt) gets a group of its own; its reaper moves itself in before
forking the worker, so every process the answer starts is counted. Two kinds of machines:

- **cgroup v2** (one unified hierarchy, as on current systemd hosts): the zygote makes
  `P/jacpuzzles-<zygote pid>/` under the nearest group `P` above it (its own included) that
  hands the `memory` and `pids` controllers down (both in `P/cgroup.subtree_control`), turns
  them on for its children, and makes `job-<id>/` there for each job (`memory.max`,
  `memory.swap.max` 0, `pids.max`). A group holding processes cannot hand controllers down, so
  the zygote never uses its own group unless it is the root.
- **cgroup v1** (a hierarchy per controller): `jacpuzzles-<zygote pid>-<id>/` under the
  zygote's own `memory` and `pids` groups (`memory.limit_in_bytes`, `pids.max`).

v2 is used where it has both controllers, else v1, else none: `probe` says why, and the grader
says the memory limit is per process. Only root makes groups. A grader killed with `kill -9`
leaves empty groups behind: the next one removes those of zygotes that are gone.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

CONTROLLERS = ("memory", "pids")
ROOT = Path("/sys/fs/cgroup")
PREFIX = "jacpuzzles-"
TCP_BYTES = 64 * 1024 * 1024  # v1: TCP buffers a job may hold (answers need no network)


@dataclass
class Groups:
    """Where this zygote's jobs get their groups: `version` 2 (`folders["unified"]`, the
    zygote's own group of job groups) or 1 (`folders` per controller: the zygote's groups)."""

    version: int
    zygote: int
    folders: dict[str, Path] = field(default_factory=dict)

    def job(self, job: str) -> dict[str, Path]:
        """The folders of job `job`'s groups, per controller (one folder for both in v2)."""
        if self.version == 2:
            folder = self.folders["unified"] / f"job-{job}"
            return {c: folder for c in CONTROLLERS}
        return {c: base / f"{PREFIX}{self.zygote}-{job}" for c, base in self.folders.items()}

    def memory_template(self) -> str:
        """The memory folder of any job, with `{job}` for its id (told to the grader, who
        watches it for the limit's kills)."""
        return str(self.job("{job}")["memory"])

    def describe(self) -> str:
        return f"cgroup v{self.version}"


def _own_paths(proc: Path) -> dict[str, str]:
    """This process's group per hierarchy: "" for v2's unified one, else each v1 controller."""
    paths: dict[str, str] = {}
    for line in (proc / "self" / "cgroup").read_text().splitlines():
        number, controllers, path = line.split(":", 2)
        if number == "0" and controllers == "":
            paths[""] = path
        for controller in controllers.split(","):
            if controller:
                paths[controller] = path
    return paths


def _words(path: Path) -> set[str]:
    try:
        return set(path.read_text().split())
    except OSError:
        return set()


def _unified(root: Path, own: str) -> tuple[Path | None, str]:
    """cgroup v2: the nearest group at or above `own` that hands both controllers down and can
    be written, or None and why not."""
    mount = root if (root / "cgroup.controllers").exists() else root / "unified"
    if not (mount / "cgroup.controllers").exists():
        return None, "no cgroup v2 hierarchy"
    if not set(CONTROLLERS) <= _words(mount / "cgroup.controllers"):
        return None, "cgroup v2 without the memory and pids controllers (they are in a v1 hierarchy)"
    folder = mount / own.lstrip("/")
    while True:
        if set(CONTROLLERS) <= _words(folder / "cgroup.subtree_control") and os.access(folder, os.W_OK):
            return folder, ""
        if folder == mount or not folder.is_relative_to(mount):
            return None, (f"cgroup v2: no group at or above {mount / own.lstrip('/')} hands down the memory and pids "
                          "controllers (cgroup.subtree_control)")
        folder = folder.parent


def _separate(root: Path, paths: dict[str, str]) -> tuple[dict[str, Path], str]:
    """cgroup v1: this process's memory and pids groups, where both can be written."""
    folders: dict[str, Path] = {}
    for controller in CONTROLLERS:
        if controller not in paths:
            continue
        folder = root / controller / paths[controller].lstrip("/")
        if os.access(folder, os.W_OK) and (folder / "cgroup.procs").exists():
            folders[controller] = folder
    missing = [c for c in CONTROLLERS if c not in folders]
    if missing:
        return {}, f"no writable cgroup v1 {' or '.join(missing)} controller"
    return folders, ""


def probe(zygote: int, root: Path = ROOT, proc: Path = Path("/proc")) -> tuple[Groups | None, str]:
    """Where jobs can get groups of their own (v2 first), as root: the `Groups`, or None and
    why not. In v2 this makes the zygote's group of job groups; `remove` takes it away."""
    if os.geteuid() != 0:
        return None, "the grader does not run as root"
    try:
        paths = _own_paths(proc)
    except (OSError, ValueError):
        return None, "no control groups (/proc/self/cgroup cannot be read)"
    parent, why_not_v2 = _unified(root, paths.get("", "/"))
    if parent is not None:
        _remove_stale(parent.glob(f"{PREFIX}*"), v2=True)
        folder = parent / f"{PREFIX}{zygote}"
        try:
            folder.mkdir(exist_ok=True)
            (folder / "cgroup.subtree_control").write_text(" ".join(f"+{c}" for c in CONTROLLERS))
        except OSError as exc:
            _rmdir(folder)
            return None, f"cannot make a cgroup v2 group in {parent}: {exc}"
        return Groups(2, zygote, {"unified": folder}), ""
    folders, why_not_v1 = _separate(root, paths)
    if not folders:
        return None, why_not_v1 if why_not_v2 == "no cgroup v2 hierarchy" else f"{why_not_v2}; {why_not_v1}"
    for base in folders.values():
        _remove_stale(base.glob(f"{PREFIX}*-*"), v2=False)
    return Groups(1, zygote, folders), ""


def make(groups: Groups, job: str, memory_bytes: int, processes: int) -> dict[str, Path]:
    """Make job `job`'s groups with their limits (0: none); its folders per controller."""
    folders = groups.job(job)
    memory, pids = folders["memory"], folders["pids"]
    for folder in set(folders.values()):
        folder.mkdir(exist_ok=True)
    if groups.version == 2:
        (memory / "memory.max").write_text(str(memory_bytes) if memory_bytes > 0 else "max")
        try:
            (memory / "memory.swap.max").write_text("0")  # no way around the limit through swap
        except OSError:
            pass  # a kernel without swap accounting
    elif memory_bytes > 0:
        (memory / "memory.limit_in_bytes").write_text(str(memory_bytes))
        try:  # v1 charges TCP buffers to a group only once this is set (v2 always does)
            (memory / "memory.kmem.tcp.limit_in_bytes").write_text(str(min(memory_bytes, TCP_BYTES)))
        except OSError:
            pass  # a kernel without kernel-memory accounting
    (pids / "pids.max").write_text(str(processes) if processes > 0 else "max")
    return folders


def join(folders: dict[str, Path], pid: int) -> None:
    """Move process `pid` into the job's groups (its children follow it there)."""
    for folder in set(folders.values()):
        (folder / "cgroup.procs").write_text(str(pid))


def seal(folders: dict[str, Path]) -> None:
    """No process of the job's may start another from now on (`pids.max` 0, below what it
    holds: the kernel then refuses every fork in the group), so killing what is left is final."""
    try:
        (folders["pids"] / "pids.max").write_text("0")
    except OSError:
        pass  # the group is gone, or this kernel refuses the value: killing still ends the tree


def oom_recorded(folder: Path) -> bool:
    """Whether a job's memory limit made the kernel kill one of its processes (or stall it out
    of memory): `oom_kill` or `oom` of v2's `memory.events`; `oom_kill` and `under_oom` of v1's
    `memory.oom_control`, else any failure to charge (`memory.failcnt`) where it counts no kills."""
    try:
        if (folder / "memory.events").exists():
            events = _counters(folder / "memory.events")
            return events.get("oom_kill", 0) > 0 or events.get("oom", 0) > 0
        control = _counters(folder / "memory.oom_control")
        if "oom_kill" in control:
            return control["oom_kill"] > 0 or control.get("under_oom", 0) > 0
        return int((folder / "memory.failcnt").read_text()) > 0
    except (OSError, ValueError):
        return False


def _counters(path: Path) -> dict[str, int]:
    return {k: int(v) for k, v in (line.split() for line in path.read_text().splitlines() if len(line.split()) == 2)}


def release(folders: dict[str, Path]) -> dict[str, object]:
    """Remove a job's (now empty) groups; what its memory group recorded: `oom` (the limit
    killed), `peak_mb` (the most its tree used, where the kernel tells)."""
    found: dict[str, object] = {}
    memory = folders.get("memory")
    if memory is not None:
        found["oom"] = oom_recorded(memory)
        for name in ("memory.peak", "memory.max_usage_in_bytes"):
            try:
                found["peak_mb"] = int((memory / name).read_text()) // (1024 * 1024)
                break
            except (OSError, ValueError):
                continue
    for folder in set(folders.values()):
        _rmdir(folder, wait=True)
    return found


def remove(groups: Groups | None) -> None:
    """Remove the zygote's own group of job groups (v2), once its jobs are released."""
    if groups is not None and groups.version == 2:
        for job in groups.folders["unified"].glob("job-*"):
            _rmdir(job, wait=True)
        _rmdir(groups.folders["unified"], wait=True)


def _rmdir(folder: Path, wait: bool = False) -> None:
    for _ in range(50 if wait else 1):
        try:
            folder.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            if wait:
                time.sleep(0.01)  # its last processes are still being torn down


def tasks_left(root: Path = ROOT, proc: Path = Path("/proc")) -> int | None:
    """How many more tasks (processes and threads) may start beside this process: the least of
    the kernel's room (`threads-max` and `pid_max` less every task now running) and, for each
    `pids` group this process is in and each above it in view, `pids.max` less `pids.current`
    (a container's process limit). None where none of them can be read."""
    rooms: list[int] = []
    try:
        running = int((proc / "loadavg").read_text().split()[3].split("/")[1])
        ceiling = min(int((proc / "sys" / "kernel" / name).read_text()) for name in ("threads-max", "pid_max"))
        rooms.append(ceiling - running)
    except (OSError, ValueError, IndexError):
        pass
    try:
        paths = _own_paths(proc)
    except (OSError, ValueError):
        paths = {}
    for base, path in ((root, paths.get("")), (root / "pids", paths.get("pids"))):
        if path is None:
            continue
        folder = base / path.lstrip("/")
        while folder.is_relative_to(base):
            try:
                limit = (folder / "pids.max").read_text().strip()
                if limit != "max":
                    rooms.append(int(limit) - int((folder / "pids.current").read_text()))
            except (OSError, ValueError):
                pass
            if folder == base:
                break
            folder = folder.parent
    return min(rooms) if rooms else None


def _remove_stale(found: Iterable[Path], v2: bool) -> None:
    """Remove the empty groups of zygotes that are gone (a grader killed with `kill -9`)."""
    for folder in found:
        owner = folder.name[len(PREFIX):].split("-")[0]
        if not owner.isdigit():
            continue
        try:
            os.kill(int(owner), 0)
            continue  # that zygote still runs
        except ProcessLookupError:
            pass
        except PermissionError:
            continue
        if v2:
            for job in folder.glob("job-*"):
                _rmdir(job)
        _rmdir(folder)
