"""The same attacks graded in every configuration the grader meets: root with namespaces, root
with `JACPUZZLES_NO_NAMESPACES=1`, root without CAP_SYS_ADMIN (a container), a plain user (in a
user namespace of the zygote's own, where the kernel allows one), and a plain user with
`JACPUZZLES_NO_USER_NAMESPACES=1` (as where they are refused: Landlock and seccomp only).

Each submission of tests/confinement_corpus/ tries one attack at import and returns a right
Jacobian only when it was refused, so every one must pass; the test also looks on the host for
what an attack would have left (a listener's connections, planted files, a signalled process).
Where no confinement can be had at all, the grader refuses to start.
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from checker.grading import _landlock
from tests.conftest import REPO

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

CORPUS = REPO / "tests" / "confinement_corpus"
ASSIGNMENT = REPO / "tests" / "grading_corpus" / "assignment.toml"
CASES = sorted(p.name for p in CORPUS.iterdir() if p.is_dir())
USER = "jacpuzzles-confine"
SECRET = "confinement-secret-51c3e0aa"
# How the grader is started in each configuration (a prefix of its command, its environment).
CONFIGURATIONS = {
    "root with namespaces": ([], {}),
    "root without namespaces": ([], {"JACPUZZLES_NO_NAMESPACES": "1"}),
    "root without CAP_SYS_ADMIN": (["setpriv", "--inh-caps", "-sys_admin", "--bounding-set", "-sys_admin", "--"], {}),
    "plain user": (["runuser", "-u", USER, "--"], {}),
    "plain user without user namespaces": (["runuser", "-u", USER, "--"], {"JACPUZZLES_NO_USER_NAMESPACES": "1"}),
}
PLAIN = ("plain user", "plain user without user namespaces")


class _Listener:
    """A TCP service on 127.0.0.1 and an abstract unix socket, counting who connects."""

    def __init__(self) -> None:
        self.abstract = f"jacpuzzles-confine-{os.getpid()}"
        self.tcp = socket.socket()
        self.tcp.bind(("127.0.0.1", 0))
        self.unix = socket.socket(socket.AF_UNIX)
        self.unix.bind("\0" + self.abstract)
        self.port = self.tcp.getsockname()[1]
        self.connections = 0
        for s in (self.tcp, self.unix):
            s.listen()
            threading.Thread(target=self._accept, args=(s,), daemon=True).start()

    def _accept(self, s: socket.socket) -> None:
        while True:
            try:
                conn, _ = s.accept()
            except OSError:
                return
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self.tcp.close()
        self.unix.close()


def _plain_user() -> pwd.struct_passwd:
    try:
        return pwd.getpwnam(USER)
    except KeyError:
        subprocess.run(["useradd", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin",
                        USER], check=True)
        return pwd.getpwnam(USER)


def _closed_to_others(path: Path) -> Path | None:
    """The first folder from / down to `path` that other users cannot enter, or None."""
    for folder in [*reversed(path.parents), path]:
        if not os.stat(folder).st_mode & 0o001:
            return folder
    return None


def _openings() -> dict[Path, set[str]]:
    """What the plain user must reach (this Python, this virtualenv, this checkout), by the first
    folder above each that other users cannot enter (/root for a Python installed under it, a
    0700 temporary folder holding a virtualenv): that folder's entries on the way down."""
    needed = (Path(os.path.realpath(sys.executable)).parent, Path(sys.prefix), REPO)
    found: dict[Path, set[str]] = {}
    for path in needed:
        closed = _closed_to_others(path)
        if closed is not None and closed != path:
            found.setdefault(closed, set()).add(path.relative_to(closed).parts[0])
    return found


def _as_user(command: list[str], scratch: Path) -> list[str]:
    """`command` as the plain user; where this Python, the virtualenv or the checkout lives in a
    folder closed to others, in a private mount namespace in which that folder alone is opened
    (a tmpfs over it, holding only the ways down): the machine is untouched."""
    openings = _openings()
    if not openings:
        return ["runuser", "-u", USER, "--", *command]
    steps = []
    for n, (closed, insides) in enumerate(sorted(openings.items())):
        for m, inside in enumerate(sorted(insides)):
            stage = scratch / f"stage-{n}-{m}"
            stage.mkdir()
            steps.append(f'mount --bind "{closed}/{inside}" "{stage}"')
        steps.append(f'mount -t tmpfs -o mode=755 tmpfs "{closed}"')
        for m, inside in enumerate(sorted(insides)):
            steps.append(f'mkdir "{closed}/{inside}" && mount --move "{scratch}/stage-{n}-{m}" "{closed}/{inside}"')
    script = " && ".join([*steps, f'exec runuser -u {USER} -- "$@"'])
    return ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, "sh", *command]


@pytest.fixture(scope="module")
def listener() -> Iterator[_Listener]:
    found = _Listener()
    yield found
    found.close()


def write_corpus(subs: Path, values: dict[str, str]) -> None:
    """Copy every case of the corpus into `subs`, its `@NAME@` marks replaced by `values`."""
    for case in CASES:
        shutil.copytree(CORPUS / case, subs / case)
        answer = subs / case / "autodiff" / "cumsum.py"
        text = answer.read_text()
        for key, value in values.items():
            text = text.replace(key, value)
        answer.write_text(text)


def _grade(configuration: str, root: Path, listener: _Listener) -> dict[str, Any]:
    """Build the corpus in `root` and grade it in `configuration`; what the test checks after."""
    prefix, overrides = CONFIGURATIONS[configuration]
    user = configuration in PLAIN
    home = root / "home"  # the grader's user's home: a .bashrc to plant a line in
    home.mkdir()
    (home / ".bashrc").write_text("# the instructor's\n")
    victim = subprocess.Popen(["sleep", "300"], user=USER if user else None)
    started_nice = os.getpriority(os.PRIO_PROCESS, victim.pid)
    tag = f"{os.getpid()}_{abs(hash(configuration)) % 10**6}"
    values = {"@KIT@": str(REPO), "@SECRET@": SECRET, "@PORT@": str(listener.port), "@ABSTRACT@": listener.abstract,
              "@VICTIM@": str(victim.pid), "@TAG@": tag, "@HOST_HOME@": str(home), "@HOP@": tag[-9:]}
    subs = root / "submissions"
    write_corpus(subs, values)
    out = root / "out"
    scratch = root / "scratch"  # the grader's TMPDIR: empty again once it ends (locks_its_folder)
    scratch.mkdir()
    if user:
        subprocess.run(["chown", "-R", USER, str(root)], check=True)
    before = listener.connections
    command = [sys.executable, "-m", "checker", "grade", str(subs), "--out", str(out), "--assignment", str(ASSIGNMENT),
               "--timeout", "5", "--jobs", "2"]
    try:
        result = subprocess.run(
            _as_user(command, root) if user else [*prefix, *command], check=False, capture_output=True, text=True,
            cwd=REPO, stdin=subprocess.DEVNULL, timeout=500,
            env={**os.environ, **overrides, "HOME": str(home), "TMPDIR": str(scratch), "COLUMNS": "1000",
                 "GRADER_SECRET": SECRET,
                 **({"JACPUZZLES_CACHE": "off"} if user else {})},  # the tests' cache is root's
        )
        alive = victim.poll() is None
        nice = os.getpriority(os.PRIO_PROCESS, victim.pid)  # reschedules_others's target: as started
    finally:
        victim.kill()
        victim.wait()
    return {"result": result, "out": out, "connections": listener.connections - before, "victim_alive": alive,
            "hopping": _named(f"hop{tag[-9:]}"),
            "victim_reniced": nice != started_nice, "planted": _planted(tag),
            "bashrc": (home / ".bashrc").read_text(), "bashrc_changed": bashrc_changed(home / ".bashrc"),
            "left": sorted(str(p) for p in scratch.rglob("*"))}


def bashrc_changed(path: Path) -> list[str]:
    """What of the instructor's `.bashrc` the corpus's `changes_modes` changed: its mode, owner
    (4242) or extended attribute."""
    found = []
    status = path.stat()
    if status.st_mode & 0o022:
        found.append(f"mode {oct(status.st_mode & 0o7777)}")
    if status.st_uid == 4242:
        found.append("owner 4242")
    try:
        if "user.jacpuzzles" in os.listxattr(path):
            found.append("xattr user.jacpuzzles")
    except OSError:  # a file system without extended attributes
        pass
    return found


def _named(name: str) -> list[int]:
    """Processes of that name still alive (killed here, so that a failure leaves none behind)."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            if Path(f"/proc/{entry}/comm").read_text().strip() != name:
                continue
            if Path(f"/proc/{entry}/stat").read_text().split(") ")[1].startswith("Z"):
                continue
        except (OSError, IndexError):
            continue
        found.append(int(entry))
        try:
            os.kill(int(entry), 9)
        except OSError:
            pass
    return found


def _planted(tag: str) -> list[str]:
    """Files named after this run's mark on the host: site-packages, /tmp, /tmp/.local."""
    import site
    import sysconfig

    mark = f"jacpuzzles_planted_{tag}.pth"
    version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    places = dict.fromkeys([sysconfig.get_paths()["purelib"], *site.getsitepackages(), "/tmp",
                            f"/tmp/.local/lib/{version}/site-packages"])
    found = [os.path.join(p, mark) for p in places if os.path.exists(os.path.join(p, mark))]
    for path in found:
        os.unlink(path)
    return found


def _enclosed(line: str) -> bool:
    """Whether the start-up line says workers get namespaces of their own."""
    return line.startswith("isolation: namespaces (")


def _user_namespaces_allowed() -> bool:
    """Whether this kernel lets the plain user make a user namespace (and mount in it)."""
    probe = ["runuser", "-u", USER, "--", "unshare", "--map-root-user", "--mount", "mount", "-t", "tmpfs", "tmpfs",
             "/tmp"]
    return subprocess.run(probe, check=False, capture_output=True, timeout=30).returncode == 0


@pytest.fixture(scope="module")
def root_or_skip() -> None:
    if os.geteuid() != 0:
        pytest.skip("the configurations are made by root: run these tests as root (a plain user's run is one of them)")
    if _landlock.abi() < 1:
        pytest.skip("this kernel has no Landlock: only the configuration with namespaces confines workers here")


@pytest.mark.parametrize("configuration", list(CONFIGURATIONS))
def test_every_attack_is_refused_in_every_configuration(configuration: str, root_or_skip: None,
                                                        listener: _Listener) -> None:
    if configuration in PLAIN:
        _plain_user()
    if configuration == "root without CAP_SYS_ADMIN" and shutil.which("setpriv") is None:
        pytest.skip("no setpriv (util-linux) to drop CAP_SYS_ADMIN")
    root = Path(tempfile.mkdtemp(prefix="jacpuzzles-confine-"))
    root.chmod(0o755)
    try:
        found = _grade(configuration, root, listener)
        result = found["result"]
        assert result.returncode == 0, result.stderr[-3000:]
        line = next(line for line in result.stderr.splitlines() if line.startswith("isolation:"))
        assert ("Landlock ABI" in line and "seccomp" in line and "non-dumpable" in line
                and "no capabilities (CapEff 0" in line), line
        if configuration == "plain user":
            if _user_namespaces_allowed():
                assert ("namespaces (a user namespace mapping only the grader's uid, then mount, pid, network, IPC, "
                        "UTS)") in line, line
                assert "threads (RLIMIT_NPROC in a user namespace of its own)" in line, line
            else:
                assert ("no namespaces (the grader does not run as root, and has no user namespace of its own: "
                        in line), line
        if configuration == "plain user without user namespaces":
            assert not _enclosed(line), line
            assert ("no namespaces (the grader does not run as root, and has no user namespace of its own: "
                    "turned off by JACPUZZLES_NO_USER_NAMESPACES)") in line, line
        for case in CASES:
            doc = json.loads((found["out"] / f"{case}.json").read_text())
            cumsum = next(r for r in doc["results"] if r["puzzle"] == "cumsum")
            if case == "holds_many_threads" and cumsum["status"] == "error":  # killed by the reaper's thread count
                assert configuration == "plain user without user namespaces", cumsum  # elsewhere a limit refuses
                assert "exceeded the limit of" in json.dumps(cumsum), cumsum
                continue
            assert cumsum["status"] == "pass", (configuration, case, cumsum)  # reaches_host_processes too: seccomp
        assert found["connections"] == 0, configuration
        assert found["hopping"] == [], f"{configuration}: processes {found['hopping']} outlived their job"

        assert found["victim_alive"] and not found["victim_reniced"], configuration
        assert os.stat("/dev/null").st_mode & 0o7777 == 0o666, configuration  # tampers_stdin
        assert found["planted"] == [], configuration
        assert found["left"] == [], configuration  # locks_its_folder's locked folder too
        assert "planted" not in found["bashrc"] and found["bashrc_changed"] == [], configuration
        for path in found["out"].rglob("*"):
            assert not path.is_file() or SECRET.encode() not in path.read_bytes(), path
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.mark.parametrize("configuration", PLAIN)
def test_a_plain_users_process_limit_is_shared_among_the_jobs(configuration: str, root_or_skip: None) -> None:
    """At `ulimit -u 300`, answers each holding threads up to the usual job limit (272 on two
    cores) left classmates `ungradable`, or ended the grader with a traceback (red team RT28):
    each job's limit is now its share of what the user's limit leaves, and every classmate is
    graded."""
    _plain_user()
    if shutil.which("prlimit") is None:
        pytest.skip("no prlimit (util-linux) to set the user's process limit")
    tmp_path = Path(tempfile.mkdtemp(prefix="jacpuzzles-nproc-"))  # pytest's own is closed to the plain user
    try:
        _share_a_process_limit(configuration, tmp_path)
    finally:
        shutil.rmtree(tmp_path, ignore_errors=True)


def _share_a_process_limit(configuration: str, tmp_path: Path) -> None:
    holder = REPO / "tests" / "container" / "cases" / "holds_threads_below_the_usual_limit"
    subs = tmp_path / "submissions"
    for n in range(2):
        shutil.copytree(holder, subs / f"holder{n}")
    honest = [f"student{n}" for n in range(4)]
    for name in honest:
        (subs / name / "autodiff").mkdir(parents=True)
        shutil.copy(REPO / "solutions" / "autodiff" / "cumsum.py", subs / name / "autodiff" / "cumsum.py")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    tmp_path.chmod(0o755)
    subprocess.run(["chown", "-R", USER, str(tmp_path)], check=True)
    command = ["prlimit", "--nproc=300", "--", sys.executable, "-m", "checker", "grade", str(subs),
               "--out", str(tmp_path / "out"), "--assignment", str(ASSIGNMENT), "--timeout", "5", "--jobs", "3"]
    result = subprocess.run(_as_user(command, tmp_path), check=False, capture_output=True, text=True, cwd=REPO,
                            stdin=subprocess.DEVNULL, timeout=500,
                            env={**os.environ, **CONFIGURATIONS[configuration][1], "HOME": str(tmp_path),
                                 "TMPDIR": str(scratch), "COLUMNS": "1000", "JACPUZZLES_CACHE": "off"})
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    for name in honest:
        doc = json.loads((tmp_path / "out" / f"{name}.json").read_text())
        cumsum = next(r for r in doc["results"] if r["puzzle"] == "cumsum")
        assert doc["status"] == "graded" and cumsum["status"] == "pass", (name, doc)
    for n in range(2):
        doc = json.loads((tmp_path / "out" / f"holder{n}.json").read_text())
        cumsum = next(r for r in doc["results"] if r["puzzle"] == "cumsum")
        assert cumsum["status"] == "pass" or "exceeded the limit of" in json.dumps(cumsum), cumsum


def test_with_no_confinement_at_all_grade_refuses_to_start_unless_trusted(root_or_skip: None, listener: _Listener,
                                                                          tmp_path: Path) -> None:
    """No namespaces and no Landlock (an old kernel, macOS): exit 2, what is missing and what to
    do; with --trust-submissions it grades, saying what is unprotected."""
    off = {"JACPUZZLES_NO_NAMESPACES": "1", "JACPUZZLES_NO_LANDLOCK": "1"}
    subs = tmp_path / "submissions" / "right" / "autodiff"
    subs.mkdir(parents=True)
    shutil.copy(REPO / "solutions" / "autodiff" / "cumsum.py", subs / "cumsum.py")
    command = [sys.executable, "-m", "checker", "grade", str(tmp_path / "submissions"), "--out", str(tmp_path / "out"),
               "--assignment", str(ASSIGNMENT), "--timeout", "5"]
    env = {**os.environ, **off, "COLUMNS": "1000"}
    refused = subprocess.run(command, check=False, capture_output=True, text=True, cwd=REPO, stdin=subprocess.DEVNULL,
                             timeout=300, env=env)
    assert refused.returncode == 2, refused.stderr[-2000:]
    assert ("grade refuses to run submissions here: no namespaces (turned off by JACPUZZLES_NO_NAMESPACES) and "
            "no Landlock (turned off by JACPUZZLES_NO_LANDLOCK)") in refused.stderr
    assert "Linux 5.13 or later with Landlock" in refused.stderr and "--trust-submissions" in refused.stderr
    assert not (tmp_path / "out" / "right.json").exists()
    trusted = subprocess.run([*command, "--trust-submissions"], check=False, capture_output=True, text=True, cwd=REPO,
                             stdin=subprocess.DEVNULL, timeout=300, env=env)
    assert trusted.returncode == 0, trusted.stderr[-2000:]
    assert "--trust-submissions: grading unconfined: " in trusted.stderr and "UNCONFINED" in trusted.stderr
    assert json.loads((tmp_path / "out" / "right.json").read_text())["score"] > 0
