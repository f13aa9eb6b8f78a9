"""Which control groups a grading job gets, read off a machine's cgroup files (a fake tree here:
the real kernel's v2 is exercised in a VM, tests/test_cgroup2_vm.py; v1 by the grading corpus)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from checker.grading import _cgroups

DEAD_PID = 2**22 + 7  # above the kernel's pid_max: no process has it


def _tree(tmp_path: Path, cgroup: str, files: dict[str, str]) -> tuple[Path, Path]:
    """A fake /sys/fs/cgroup and /proc: `files` relative to the cgroup root."""
    root, proc = tmp_path / "cgroup", tmp_path / "proc"
    (proc / "self").mkdir(parents=True)
    (proc / "self" / "cgroup").write_text(cgroup)
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root, proc


def _systemd_v2(tmp_path: Path, handed_down: str = "cpu memory pids") -> tuple[Path, Path]:
    """A systemd host: the grader in a session scope (which holds processes, so it hands
    nothing down), under a slice that hands controllers down."""
    return _tree(tmp_path, "0::/user.slice/session-3.scope\n", {
        "cgroup.controllers": "cpuset cpu io memory pids",
        "cgroup.subtree_control": "cpu memory pids",
        "user.slice/cgroup.controllers": "cpu memory pids",
        "user.slice/cgroup.subtree_control": handed_down,
        "user.slice/session-3.scope/cgroup.controllers": "cpu memory pids",
        "user.slice/session-3.scope/cgroup.subtree_control": "",
        "user.slice/session-3.scope/cgroup.procs": "1234\n",
    })


@pytest.fixture(autouse=True)
def _as_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 0)


def test_v2_groups_go_under_the_nearest_group_that_hands_the_controllers_down(tmp_path: Path) -> None:
    root, proc = _systemd_v2(tmp_path)
    groups, why_not = _cgroups.probe(4321, root, proc)
    assert why_not == "" and groups is not None and groups.describe() == "cgroup v2"
    own = root / "user.slice" / "jacpuzzles-4321"
    assert groups.folders == {"unified": own}
    assert (own / "cgroup.subtree_control").read_text() == "+memory +pids"
    assert groups.job("7") == {"memory": own / "job-7", "pids": own / "job-7"}
    assert groups.memory_template() == str(own / "job-{job}")


def test_a_v2_job_group_gets_the_tree_s_memory_no_swap_and_the_process_limit(tmp_path: Path) -> None:
    root, proc = _systemd_v2(tmp_path)
    groups, _ = _cgroups.probe(4321, root, proc)
    assert groups is not None
    folder = _cgroups.make(groups, "7", 1792 * 1024 * 1024, 264)["memory"]
    assert (folder / "memory.max").read_text() == str(1792 * 1024 * 1024)
    assert (folder / "memory.swap.max").read_text() == "0"
    assert (folder / "pids.max").read_text() == "264"
    unlimited = _cgroups.make(groups, "8", 0, 0)["memory"]
    assert (unlimited / "memory.max").read_text() == "max" and (unlimited / "pids.max").read_text() == "max"


def test_v2_without_a_group_that_hands_the_controllers_down_says_so(tmp_path: Path) -> None:
    root, proc = _systemd_v2(tmp_path, handed_down="cpu")
    (root / "cgroup.subtree_control").write_text("cpu")
    groups, why_not = _cgroups.probe(4321, root, proc)
    assert groups is None
    assert "cgroup v2: no group at or above" in why_not and "hands down the memory and pids controllers" in why_not, (
        why_not
    )


def test_the_grader_in_the_v2_root_uses_the_root(tmp_path: Path) -> None:
    root, proc = _tree(
        tmp_path, "0::/\n", {"cgroup.controllers": "memory pids", "cgroup.subtree_control": "memory pids"}
    )
    groups, _ = _cgroups.probe(11, root, proc)
    assert groups is not None and groups.folders["unified"] == root / "jacpuzzles-11"


def test_v1_where_v2_has_no_memory_controller(tmp_path: Path) -> None:
    """A hybrid host: a unified hierarchy without controllers, memory and pids in v1."""
    root, proc = _tree(tmp_path, "9:memory:/grader\n4:pids:/grader\n0::/grader\n", {
        "unified/cgroup.controllers": "",
        "memory/grader/cgroup.procs": "",
        "pids/grader/cgroup.procs": "",
    })
    groups, why_not = _cgroups.probe(55, root, proc)
    assert why_not == "" and groups is not None and groups.describe() == "cgroup v1"
    assert groups.job("3") == {
        "memory": root / "memory/grader/jacpuzzles-55-3",
        "pids": root / "pids/grader/jacpuzzles-55-3",
    }
    folder = _cgroups.make(groups, "3", 2 * 1024**3, 100)["memory"]
    assert (folder / "memory.limit_in_bytes").read_text() == str(2 * 1024**3)
    # v1 charges TCP buffers only under a limit of their own (without one, gigabytes go uncharged)
    assert (folder / "memory.kmem.tcp.limit_in_bytes").read_text() == str(64 * 1024**2)
    assert (root / "pids/grader/jacpuzzles-55-3/pids.max").read_text() == "100"


def test_no_usable_groups_says_why_for_both_kinds(tmp_path: Path) -> None:
    root, proc = _tree(
        tmp_path, "9:memory:/grader\n0::/grader\n", {"unified/cgroup.controllers": "", "memory/grader/cgroup.procs": ""}
    )
    groups, why_not = _cgroups.probe(55, root, proc)
    assert groups is None
    assert (
        "cgroup v2 without the memory and pids controllers" in why_not
        and "no writable cgroup v1 pids controller" in why_not
    ), why_not


def test_only_root_makes_groups(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root, proc = _systemd_v2(tmp_path)
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert _cgroups.probe(4321, root, proc) == (None, "the grader does not run as root")


def test_empty_groups_of_zygotes_that_are_gone_are_removed_and_live_ones_kept(tmp_path: Path) -> None:
    root, proc = _systemd_v2(tmp_path)
    stale, live = root / "user.slice" / f"jacpuzzles-{DEAD_PID}", root / "user.slice" / f"jacpuzzles-{os.getpid()}"
    (stale / "job-3").mkdir(parents=True)
    (live / "job-1").mkdir(parents=True)
    _cgroups.probe(4321, root, proc)
    assert not stale.exists() and (live / "job-1").exists()


@pytest.mark.parametrize("name, text, killed", [
    ("memory.events", "low 0\nhigh 0\nmax 12\noom 0\noom_kill 0\n", False),  # reclaimed at the limit, no one killed
    ("memory.events", "low 0\nhigh 0\nmax 40\noom 1\noom_kill 1\n", True),
    ("memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 0\n", False),
    ("memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n", True),
])
def test_a_kill_by_the_memory_limit_is_read_from_either_kind(
    tmp_path: Path, name: str, text: str, killed: bool
) -> None:
    (tmp_path / name).write_text(text)
    assert _cgroups.oom_recorded(tmp_path) is killed


def test_release_reports_the_peak_and_the_kill(tmp_path: Path) -> None:
    folder = tmp_path / "job-1"
    folder.mkdir()
    (folder / "memory.events").write_text("oom 1\noom_kill 1\n")
    (folder / "memory.peak").write_text(str(1500 * 1024 * 1024))
    assert _cgroups.release({"memory": folder, "pids": folder}) == {"oom": True, "peak_mb": 1500}


# --- the tasks left to the grader (a container's process limit) ------------------------------


def _kernel(proc: Path, running: int, threads_max: int = 100_000, pid_max: int = 4_194_304) -> None:
    (proc / "sys" / "kernel").mkdir(parents=True, exist_ok=True)
    (proc / "loadavg").write_text(f"0.10 0.20 0.30 3/{running} 999\n")
    (proc / "sys" / "kernel" / "threads-max").write_text(f"{threads_max}\n")
    (proc / "sys" / "kernel" / "pid_max").write_text(f"{pid_max}\n")


def test_tasks_left_is_the_least_room_of_the_kernel_and_every_pids_group_above(tmp_path: Path) -> None:
    root, proc = _tree(tmp_path, "0::/ctr/inner\n", {
        "ctr/pids.max": "2048\n", "ctr/pids.current": "300\n",  # the container's limit: 1748 left
        "ctr/inner/pids.max": "max\n", "ctr/inner/pids.current": "250\n",
    })
    _kernel(proc, running=500)
    assert _cgroups.tasks_left(root, proc) == 1748
    _kernel(proc, running=500, threads_max=1200)  # the kernel's room is less: 700
    assert _cgroups.tasks_left(root, proc) == 700


def test_tasks_left_reads_cgroup_v1s_pids_hierarchy(tmp_path: Path) -> None:
    root, proc = _tree(tmp_path, "8:pids:/\n7:memory:/\n", {"pids/pids.max": "512\n", "pids/pids.current": "12\n"})
    _kernel(proc, running=40)
    assert _cgroups.tasks_left(root, proc) == 500


def test_no_limit_found_is_none(tmp_path: Path) -> None:
    root, proc = _tree(tmp_path, "0::/\n", {})
    assert _cgroups.tasks_left(root, proc) is None
