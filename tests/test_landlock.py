"""Landlock as a worker gets it (`checker.grading._landlock`), applied in a forked child: what it
may not read, write, connect to or signal, whoever runs the tests (no privilege needed)."""

from __future__ import annotations

import errno
import os
import signal
import socket
from collections.abc import Callable
from pathlib import Path

import pytest

from checker.grading import _landlock

pytestmark = pytest.mark.skipif(
    _landlock.abi() < 1, reason="this kernel has no Landlock (Linux 5.13 or later, enabled at boot)"
)


def _confined(tmp_path: Path, attempt: Callable[[], object]) -> str:
    """Run `attempt` in a child confined as a worker is (read the kit's `checker` folder but not
    its `solutions`, write `job` only): "ok", or the name of the errno it failed with."""
    kit = tmp_path / "kit"
    rules = _landlock.reading(str(kit), except_=[str(kit / "solutions")])
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            ruleset = _landlock.Ruleset(_landlock.abi())
            for path, rights in rules:
                ruleset.grant(path, rights)
            ruleset.grant_write(str(tmp_path / "job"))
            ruleset.restrict()
            attempt()
            said = "ok"
        except OSError as exc:
            said = errno.errorcode.get(exc.errno or 0, str(exc))
        except BaseException as exc:  # noqa: BLE001 - reported to the test
            said = repr(exc)
        os.write(write, said.encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        said = pipe.read().decode()
    os.waitpid(pid, 0)
    return said


@pytest.fixture
def kit(tmp_path: Path) -> Path:
    for rel in ("checker/engine.py", "solutions/autodiff/cumsum.py", "job/answer.py", "elsewhere/secret.txt"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x = 1\n")
    (tmp_path / "kit").mkdir()
    for folder in ("checker", "solutions"):
        (tmp_path / folder).rename(tmp_path / "kit" / folder)
    return tmp_path


def test_the_granted_files_read_and_the_rest_is_refused(kit: Path) -> None:
    assert _confined(kit, lambda: (kit / "kit" / "checker" / "engine.py").read_text()) == "ok"
    assert _confined(kit, lambda: (kit / "job" / "answer.py").read_text()) == "ok"
    assert _confined(kit, lambda: (kit / "kit" / "solutions" / "autodiff" / "cumsum.py").read_text()) == "EACCES"
    assert _confined(kit, lambda: (kit / "elsewhere" / "secret.txt").read_text()) == "EACCES"


def test_only_the_job_folder_can_be_written(kit: Path) -> None:
    assert _confined(kit, lambda: (kit / "job" / "result.json").write_text("{}")) == "ok"
    assert _confined(kit, lambda: (kit / "elsewhere" / "planted.pth").write_text("import os")) == "EACCES"
    assert _confined(kit, lambda: (kit / "kit" / "checker" / "engine.py").write_text("")) == "EACCES"
    assert (
        not (kit / "elsewhere" / "planted.pth").exists()
        and (kit / "kit" / "checker" / "engine.py").read_text() == "x = 1\n"
    )


@pytest.mark.skipif(_landlock.abi() < 4, reason="TCP is confined from Landlock ABI 4 (Linux 6.7)")
def test_tcp_to_a_local_listener_is_refused(kit: Path) -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]

        def connect() -> None:
            with socket.socket() as s:
                s.connect(("127.0.0.1", port))

        assert _confined(kit, connect) == "EACCES"


@pytest.mark.skipif(
    _landlock.abi() < 6, reason="abstract unix sockets and signals are scoped from Landlock ABI 6 (Linux 6.12)"
)
def test_an_abstract_unix_socket_outside_is_refused(kit: Path) -> None:
    name = f"\0jacpuzzles-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX) as listener:
        listener.bind(name)
        listener.listen()

        def connect() -> None:
            with socket.socket(socket.AF_UNIX) as s:
                s.connect(name)

        assert _confined(kit, connect) == "EPERM"


@pytest.mark.skipif(_landlock.abi() < 6, reason="signals are scoped from Landlock ABI 6 (Linux 6.12)")
def test_the_parent_cannot_be_signalled(kit: Path) -> None:
    assert _confined(kit, lambda: os.kill(os.getppid(), signal.SIGCONT)) == "EPERM"


def test_the_parent_s_environ_and_memory_are_unreadable(kit: Path) -> None:
    assert _confined(kit, lambda: Path(f"/proc/{os.getppid()}/environ").read_bytes()) == "EACCES"
    assert _confined(kit, lambda: Path(f"/proc/{os.getppid()}/mem").open("rb").close()) == "EACCES"
