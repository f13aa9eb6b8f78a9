"""The zygote's user namespace as a plain user gets it (`_linux.enter_user_namespace`), and a
worker giving up its capabilities there (`_linux.drop_bounding_set`, `drop_capabilities`),
each in a forked child of an unprivileged uid (no privilege needed; as root, the child drops to
one first). The whole enclosure is graded by tests/test_confinement.py."""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

import pytest

from checker.grading import _confine, _linux

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux namespaces")

UID = 619998  # a uid no user has, as the grader's own stands in here


def _status(*keys: str) -> dict[str, str]:
    with open("/proc/self/status") as file:
        return {k: v.strip() for k, _, v in (line.partition(":") for line in file) if k in keys}


def _in_child(tmp_path: Path) -> dict[str, Any]:
    """In a forked child of an unprivileged uid: enter a user namespace of its own, look around,
    make namespaces as a worker does, give up the capabilities, and try again."""
    tmp_path.chmod(0o777)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        found: dict[str, Any] = {}
        try:
            os.chdir(tmp_path)
            if os.geteuid() == 0:
                os.setgroups([])
                os.setgid(UID)
                os.setuid(UID)
            uid, gid = os.getuid(), os.getgid()
            found["refused"] = _linux.enter_user_namespace(uid, gid)
            if not found["refused"]:
                found["uid_map"] = Path("/proc/self/uid_map").read_text().split()
                found["gid_map"] = Path("/proc/self/gid_map").read_text().split()
                found["setgroups"] = Path("/proc/self/setgroups").read_text().strip()
                found["expected"] = [str(uid), str(uid), "1", str(gid), str(gid), "1"]
                _linux.unshare(_linux.CLONE_NEWNS | _linux.CLONE_NEWNET | _linux.CLONE_NEWIPC | _linux.CLONE_NEWUTS)
                found["before"] = _status("CapEff", "CapBnd")
                _linux.drop_bounding_set()
                _linux.drop_capabilities()
                found["after"] = _status("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb", "NoNewPrivs")
                try:
                    _linux.unshare(_linux.CLONE_NEWNS)
                    found["unshare_after"] = "allowed"
                except OSError as exc:
                    found["unshare_after"] = exc.errno
        except BaseException as exc:  # noqa: BLE001 - reported to the test
            found["error"] = repr(exc)
        os.write(write, json.dumps(found).encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        said = pipe.read()
    os.waitpid(pid, 0)
    return dict(json.loads(said))


def test_the_user_namespace_maps_only_the_grader_s_ids_and_no_capability_survives_the_drop(tmp_path: Path) -> None:
    found = _in_child(tmp_path)
    assert "error" not in found, found
    if found["refused"]:
        pytest.skip(f"this kernel refuses this user a user namespace: {found['refused']}")
    assert found["uid_map"] + found["gid_map"] == found["expected"]
    assert found["setgroups"] == "deny"
    assert int(found["before"]["CapEff"], 16) != 0 and int(found["before"]["CapBnd"], 16) != 0  # what there was to drop
    assert {k: int(v, 16) for k, v in found["after"].items()} == {"CapInh": 0, "CapPrm": 0, "CapEff": 0, "CapBnd": 0,
                                                                  "CapAmb": 0, "NoNewPrivs": 1}
    assert found["unshare_after"] == 1  # EPERM: no namespace can be made (or undone) any more


def test_the_switch_stands_for_a_refusal_and_root_needs_no_user_namespace(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JACPUZZLES_NO_USER_NAMESPACES", "1")
    said = _linux.zygote_user_namespace()
    if os.geteuid() == 0:
        assert said == "not needed: the grader runs as root"
    else:
        assert said == "turned off by JACPUZZLES_NO_USER_NAMESPACES"


def test_a_worker_s_threads_are_counted_in_a_user_namespace_of_its_own(tmp_path: Path) -> None:
    """Nested in the zygote's, a worker's own user namespace counts RLIMIT_NPROC for it alone:
    with a limit of 8, some threads start and the rest are refused, though the uid has other
    processes (this test's own, as the grader's uid has the grader's)."""
    tmp_path.chmod(0o777)
    __import__("resource")  # loaded as the worker has it: the other uid may not read Python's folders
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        said = ""
        try:
            if os.geteuid() == 0:
                os.setgroups([])
                os.setgid(UID)
                os.setuid(UID)
            refused = _linux.enter_user_namespace(os.getuid(), os.getgid())
            others = _sleepers(2 * _confine.PROBE_TASKS)  # the uid's other processes: more than the limit
            said = f"refused: {refused}" if refused else _confine.try_in_child(_confine.prove_own_task_count, "count")
            for other in others:
                os.kill(other, 9)
        except BaseException as exc:  # noqa: BLE001 - reported to the test
            said = repr(exc)
        os.write(write, said.encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        said = pipe.read().decode()
    os.waitpid(pid, 0)
    if said.startswith("refused: "):
        pytest.skip(f"this kernel refuses this user a user namespace: {said}")
    assert said == ""


def _sleepers(count: int) -> list[int]:
    """`count` forked processes of this uid, each waiting to be killed."""
    pids = []
    for _ in range(count):
        pid = os.fork()
        if pid == 0:
            try:
                while True:
                    signal.pause()
            finally:
                os._exit(0)
        pids.append(pid)
    return pids


def test_before_linux_5_14_no_task_count_is_set(monkeypatch: pytest.MonkeyPatch) -> None:
    """There RLIMIT_NPROC counts every process of the uid on the machine, the grader's too."""
    real = os.uname()
    monkeypatch.setattr(os, "uname", lambda: os.uname_result((*real[:2], "5.10.0-28-amd64", *real[3:])))
    with pytest.raises(OSError, match=r"Linux 5\.10\.0-28-amd64 counts RLIMIT_NPROC per uid"):
        _linux.count_own_tasks(8)


@pytest.mark.parametrize(("value", "off"), [("1", True), ("yes", True), ("0", False), ("", False), ("false", False),
                                            ("OFF", False), ("no", False)])
def test_a_switch_set_to_0_leaves_the_confinement_on(monkeypatch: pytest.MonkeyPatch, value: str, off: bool) -> None:
    """Red team RT23: JACPUZZLES_NO_NAMESPACES=0 turned namespaces off."""
    monkeypatch.setenv("JACPUZZLES_NO_NAMESPACES", value)
    assert _linux.switched_off("JACPUZZLES_NO_NAMESPACES") is off
