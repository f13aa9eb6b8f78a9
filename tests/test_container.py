"""The grader inside a real container, as Gradescope and CI jobs with `container:` run it: rootful
podman, as root without CAP_SYS_ADMIN, with a process limit (`--pids-limit`) below what two
jobs may hold together at the usual thread limit, twice: with podman's default capabilities and seccomp
profile, and with Docker's (its profile from Debian's golang-github-docker-docker-dev, fetched
with `apt-get download`; its capabilities are podman's and AUDIT_WRITE, MKNOD, NET_RAW). No
image is pulled: the container's root is a folder of this machine's own files (/usr read-only;
this Python, the virtualenv and the checkout each at its own path, as an overlay whose writes
are dropped with the container). Inside, tests/container/grade.py grades
the confinement corpus, the attacks of tests/container/cases/ (on what root keeps in a
container: device nodes, raw sockets) and two honest students in one run, and prints what it
found.

Skipped without podman (or not as root), except where JACPUZZLES_CONTAINER=required (`.ci/run`,
which installs podman and runc): there a container that cannot start fails the test.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

REQUIRED = os.environ.get("JACPUZZLES_CONTAINER") == "required"
CAP_SYS_ADMIN = 21
# Docker's default profile, as Debian ships it (Docker 20.10's): its source package only.
DOCKER_PROFILE_PACKAGE = "golang-github-docker-docker-dev"
DOCKER_PROFILE_PATH = "usr/share/gocode/src/github.com/docker/docker/profiles/seccomp/default.json"
PROFILES = ("podman's default", "Docker's default")
DOCKER_EXTRA_CAPABILITIES = ("AUDIT_WRITE", "MKNOD", "NET_RAW")  # in Docker's default set, not podman's
# Below what two jobs may hold together at the usual thread limit (2 x 272 on 2 cores), with the
# grader's own: each job gets its share (red team RT27, `_sandbox.thread_limit`).
PIDS_LIMIT = 300
THREAD_HOLDERS = ("holds_many_threads", "holds_threads_below_the_usual_limit")
ETC = ("passwd", "group", "nsswitch.conf", "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime")


def _unavailable(why: str) -> None:
    """Skip, or fail where the container is required (`.ci/run`)."""
    if REQUIRED:
        pytest.fail(f"JACPUZZLES_CONTAINER=required, but {why}")
    pytest.skip(why)


def _docker_profile(folder: Path) -> Path:
    """Docker's default seccomp profile, from Debian's package of Docker's sources."""
    for attempt in range(2):
        if attempt:  # an old package list names a version the mirror no longer has
            subprocess.run(["apt-get", "update", "-q"], capture_output=True, timeout=300, check=False)
        found = subprocess.run(["apt-get", "download", "-q", DOCKER_PROFILE_PACKAGE], cwd=folder, capture_output=True,
                               text=True, timeout=300, check=False)
        if found.returncode == 0:
            break
    debs = sorted(folder.glob(f"{DOCKER_PROFILE_PACKAGE}_*.deb"))
    if not debs:
        _unavailable(f"apt-get download {DOCKER_PROFILE_PACKAGE} failed (Docker's seccomp profile): "
                     f"{found.stderr.strip()[-300:]}")
    tree = subprocess.run(["dpkg-deb", "--fsys-tarfile", str(debs[-1])], capture_output=True, check=True,
                          timeout=120).stdout
    profile = subprocess.run(["tar", "-xO", f"./{DOCKER_PROFILE_PATH}"], input=tree, capture_output=True, check=True,
                             timeout=120).stdout
    path = folder / "docker-default.json"
    path.write_bytes(profile)
    return path


def _mounted() -> list[Path]:
    """The folders the grader needs besides /usr, each at its own path: this Python's
    installation, the virtualenv, the checkout (none inside another or inside /usr)."""
    wanted = sorted({Path(os.path.realpath(p)) for p in (sys.base_prefix, sys.prefix, REPO)})
    kept: list[Path] = []
    for path in wanted:
        if not path.is_relative_to("/usr") and not any(path.is_relative_to(k) for k in kept):
            kept.append(path)
    return kept


def _rootfs(root: Path, mounted: list[Path]) -> None:
    """A root for the container: the links and folders of a merged-/usr system, a few files of
    /etc, and each mounted folder's parents with the host's modes (a Python under a 0700 /root
    stays closed to other uids, as on the host)."""
    for name in ("usr", "tmp", "var/tmp", "run", "proc", "sys", "dev", "etc"):
        (root / name).mkdir(parents=True, exist_ok=True)
    for name in ("tmp", "var/tmp"):
        (root / name).chmod(0o1777)
    for name in ("bin", "sbin", "lib", "lib64", "lib32"):
        if os.path.islink(f"/{name}"):
            (root / name).symlink_to(os.readlink(f"/{name}"))
    for name in ETC:
        source = Path("/etc") / name
        if source.is_dir():
            shutil.copytree(source, root / "etc" / name, symlinks=True)
        elif os.path.lexists(source):
            shutil.copy2(source, root / "etc" / name, follow_symlinks=False)
    for path in mounted:
        for folder in [*reversed(path.parents), path][1:]:
            inside = root / folder.relative_to("/")
            if not inside.exists():
                inside.mkdir()
                inside.chmod(os.stat(folder).st_mode & 0o7777)


def _podman(root: Path, mounted: list[Path], profile: Path | None) -> list[str]:
    """The podman command that runs tests/container/grade.py in a container rooted at `root`."""
    nofile = min(resource.getrlimit(resource.RLIMIT_NOFILE)[1], 4096)
    nproc = min(resource.getrlimit(resource.RLIMIT_NPROC)[1], 32768)
    command = ["podman"]
    if shutil.which("runc"):  # crun 1.8 (Debian 12) refuses a host with cgroup v1 and a v2 controller
        command += ["--runtime", "runc"]
    command += ["run", "--rm", "--network", "none",
                # podman's default limits are above what a root without CAP_SYS_RESOURCE (this
                # machine may be a container itself) can set
                "--ulimit", f"nofile={nofile}:{nofile}", "--ulimit", f"nproc={nproc}:{nproc}",
                "--pids-limit", str(PIDS_LIMIT), "-v", "/usr:/usr:ro"]
    for path in mounted:
        command += ["-v", f"{path}:{path}:O"]
    if profile is not None:  # Docker's defaults: its profile, and its capabilities (podman's and three more)
        command += ["--security-opt", f"seccomp={profile}", "--cap-add", ",".join(DOCKER_EXTRA_CAPABILITIES)]
    return [*command, "-w", str(REPO), "--rootfs", str(root), sys.executable, "tests/container/grade.py"]


@pytest.fixture(scope="module", params=PROFILES)
def facts(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    if shutil.which("podman") is None:
        _unavailable("no podman here: apt-get install podman runc")
    if os.geteuid() != 0:
        _unavailable("a rootful container needs root")
    folder = tmp_path_factory.mktemp("container")
    profile = _docker_profile(folder) if request.param == "Docker's default" else None
    mounted = _mounted()
    _rootfs(folder / "root", mounted)
    result = subprocess.run(_podman(folder / "root", mounted, profile), check=False, capture_output=True, text=True,
                            timeout=800, stdin=subprocess.DEVNULL)
    lines = [line for line in result.stdout.splitlines() if line.startswith("FACTS ")]
    assert result.returncode == 0 and lines, (f"status {result.returncode}\n{result.stdout[-3000:]}\n"
                                              f"{result.stderr[-3000:]}")
    found: dict[str, object] = json.loads(lines[-1][len("FACTS "):])
    found["profile"] = request.param
    return found


def test_the_container_is_root_without_cap_sys_admin_under_seccomp_with_namespaces_refused(
        facts: dict[str, object]) -> None:
    kernel = facts["kernel"]
    assert isinstance(kernel, dict)
    assert kernel["uid"] == 0 and not int(str(kernel["cap_eff"]), 16) >> CAP_SYS_ADMIN & 1, kernel
    assert kernel["seccomp_mode"] == 2, kernel  # a filter is in force: the engine's profile
    assert kernel["unshare_mount_pid_net_ipc"] == "Operation not permitted", kernel
    assert int(kernel["landlock_abi"]) >= 1, kernel
    if facts["profile"] == "Docker's default":  # podman's profile leaves user namespaces to the kernel
        assert kernel["unshare_user"] == "Operation not permitted", kernel


def test_the_start_up_line_names_landlock_and_seccomp_and_why_namespaces_are_missing(facts: dict[str, object]) -> None:
    grade = facts["grade"]
    assert isinstance(grade, dict) and grade["status"] == 0, grade
    line = grade["isolation"][0]
    held, _, missing = line.partition("; missing: ")
    assert (held.startswith("isolation: Landlock ABI ") and "seccomp (no sockets, namespaces" in held
            and "non-dumpable" in held and "no capabilities (CapEff 0" in held), line
    assert "namespaces (mount" not in held, line
    assert "no namespaces (PermissionError: [Errno 1] unshare(" in missing, line


def test_every_attack_is_held_in_the_container(facts: dict[str, object]) -> None:
    grade = facts["grade"]
    assert isinstance(grade, dict)
    entries = grade["entries"]
    assert isinstance(entries, dict)
    for case in facts["cases"]:  # type: ignore[attr-defined]
        cumsum = entries[case]["results"]["cumsum"]
        if case in THREAD_HOLDERS and cumsum["status"] == "error":  # no uid of its own: the reaper counts
            assert "exceeded the limit of" in cumsum["message"], cumsum
            continue
        assert cumsum["status"] == "pass" and "LEAKED" not in cumsum["output"], (facts["profile"], case, cumsum)
    assert grade["connections"] == 0 and grade["victim_alive"] and grade["planted"] == [], grade
    assert "planted" not in grade["bashrc"] and grade["bashrc_changed"] == [] and grade["secret_in_out"] == [], grade


def test_honest_students_get_full_marks_in_the_container(facts: dict[str, object]) -> None:
    grade = facts["grade"]
    assert isinstance(grade, dict)
    for name in facts["honest"]:  # type: ignore[attr-defined]
        entry = grade["entries"][name]
        assert entry["score"] == entry["max_score"] > 0, (name, entry)


def test_without_landlock_the_grader_refuses_to_start_in_the_container(facts: dict[str, object]) -> None:
    """Namespaces refused and Landlock off: nothing could confine a worker, so no answer runs."""
    refused = facts["without_landlock"]
    assert isinstance(refused, dict) and refused["status"] == 2, refused
    assert ("grade refuses to run submissions here: no namespaces (PermissionError: [Errno 1] unshare("
            in refused["stderr"]), refused
    assert "no Landlock (turned off by JACPUZZLES_NO_LANDLOCK)" in refused["stderr"] and not refused["graded"], refused
