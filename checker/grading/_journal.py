"""The grader's signature on what it writes into OUT: an HMAC-SHA256 under a per-class key.

A `<submission>.json` entry (with the digest of its `.txt` feedback) and an evidence record carry
a `mac` made with the class's key. A resumed run, `--merge` and the class-wide files take only
entries whose `mac` checks: an entry rewritten by anyone without the key (a worker, a student
with a copy of OUT) is graded again or refused, never trusted. The key is a file only the
grader's user reads (0600): `OUT/.jacpuzzles-key` by default, made on the first run, or the
`--key-file` the instructor gives every shard and `--merge`.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from checker.engine._errors import JacpuzzlesError

KEY_NAME = ".jacpuzzles-key"  # in OUT, unless --key-file names another
KEY_CAP = 4096  # bytes of a key file read
ENTRY_CAP = 64 * 1024 * 1024  # bytes of an entry or feedback file read back


class KeyProblem(JacpuzzlesError):
    """The class's key cannot be read or made: the message says which file and what to do.
    Exit code 2 (the grader raises it as a `BadSetup`)."""

    exit_code = 2


@dataclass(frozen=True)
class Key:
    """The class's signing key, and the file it came from (for messages)."""

    secret: bytes
    path: Path
    made: bool = False  # made by this run (no earlier entry can verify)

    def mac(self, doc: dict[str, Any], attached: bytes = b"") -> str:
        """The signature of `doc` (without its own `mac`) and of the bytes `attached` to it."""
        body = {k: v for k, v in doc.items() if k != "mac"}
        text = json.dumps([body, hashlib.sha256(attached).hexdigest()], sort_keys=True, ensure_ascii=True)
        return hmac.new(self.secret, text.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()

    def sign(self, doc: dict[str, Any], attached: bytes = b"") -> dict[str, Any]:
        """`doc` as it reads back from JSON, with its `mac`."""
        plain: dict[str, Any] = json.loads(json.dumps({k: v for k, v in doc.items() if k != "mac"}))
        return {**plain, "mac": self.mac(plain, attached)}

    def sealed(self, seed: int) -> str:
        """The seed as it enters the digests a student receives (`key`, `setup`): keyed by the
        class's secret, so that they tell nothing of a secret seed. A plain digest over it let a
        student find a small seed by grading with every seed until one gave the same digest
        (red team RT32: seed 11 in 12 runs)."""
        return hmac.new(self.secret, f"jacpuzzles seed\0{seed}".encode(), hashlib.sha256).hexdigest()

    def verifies(self, doc: Any, attached: bytes = b"") -> bool:
        """Whether `doc` carries this key's signature over itself and `attached`."""
        if not isinstance(doc, dict) or not isinstance(doc.get("mac"), str):
            return False
        return hmac.compare_digest(doc["mac"], self.mac(doc, attached))


def key(out: Path, given: Path | None = None) -> Key:
    """The class's key: `given` (made there when missing), else `out/.jacpuzzles-key` (made on
    the first run). Raises `KeyProblem` for a key that is a link, not a regular file, empty or
    not the grader's own."""
    path = given if given is not None else out / KEY_NAME
    if os.path.lexists(path):
        return Key(_read_key(path), path)
    secret = secrets.token_hex(32)
    try:
        # Written whole under another name, then linked in place: two graders starting at once
        # with the same --key-file both end up with the one that won, never a half-written one.
        fd, partial = tempfile.mkstemp(prefix=".key-", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="ascii") as f:
                f.write(secret + "\n")
                f.flush()
                os.fsync(f.fileno())
            os.link(partial, path)
        finally:
            os.unlink(partial)
    except FileExistsError:
        return Key(_read_key(path), path)
    except OSError as exc:
        raise KeyProblem(f"cannot make the signing key {path}: {exc.strerror or exc}; pass a writable --out or "
                         "--key-file") from None
    return Key(secret.encode(), path, made=True)


def existing(out: Path, given: Path | None = None) -> Key:
    """The class's key, which must exist already (`--merge`)."""
    path = given if given is not None else out / KEY_NAME
    if not os.path.lexists(path):
        raise KeyProblem(f"no signing key at {path}: pass --key-file with the key the shards were graded with "
                         f"(or copy a shard's OUT/{KEY_NAME} into {out}, when every shard was given that one)")
    return Key(_read_key(path), path)


def _read_key(path: Path) -> bytes:
    """A key file's secret, read without following a link."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise KeyProblem(f"cannot read the signing key {path}: {exc.strerror or exc} (a link is never followed); pass "
                         "another --key-file") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise KeyProblem(f"the signing key {path} is not a regular file: remove it, or pass another --key-file")
        if info.st_uid != os.geteuid():
            raise KeyProblem(f"the signing key {path} belongs to uid {info.st_uid}, not to the grader's user "
                             f"({os.geteuid()}): anyone who could write it could sign entries; remove it, or pass your "
                             "own --key-file")
        secret = os.read(fd, KEY_CAP).strip()
    finally:
        os.close(fd)
    if len(secret) < 16:
        raise KeyProblem(f"the signing key {path} is empty or shorter than 16 bytes: remove it (a new one is made), or "
                         "pass another --key-file")
    return secret


def read_plain(path: Path, cap: int = ENTRY_CAP) -> bytes | None:
    """A file of OUT as bytes, or None when missing, not a regular file (a link is never
    followed) or over `cap`."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks, size = [], 0
        while size <= cap:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks) if size <= cap else None
    except OSError:
        return None
    finally:
        os.close(fd)


def entry(out: Path, name: str, signer: Key) -> tuple[dict[str, Any] | None, str]:
    """A submission's entry in `out` (`<name>.json` and its `<name>.txt`) when signed with
    `signer`, else None and why not ("" when there is none)."""
    raw = read_plain(out / f"{name}.json")
    if raw is None:
        return None, ""
    feedback = read_plain(out / f"{name}.txt")
    try:
        doc = json.loads(raw.decode("utf-8"))
    except ValueError:
        return None, "it is not valid JSON"
    if feedback is None:
        return None, f"its feedback {name}.txt is missing"
    if not isinstance(doc, dict) or "mac" not in doc:
        return None, "it carries no signature (written by an older grader, or not by the grader)"
    if not signer.verifies(doc, feedback):
        return None, (f"its signature does not check with the key {signer.path} (written or changed by something "
                      "other than this class's grader)")
    return doc, ""
