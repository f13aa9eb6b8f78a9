"""What the grader sends its grading processes (`_sandbox` to `_zygote`): typed, and serialised
to JSON and back here only, by both sides.

`Config` is written once per class run (`config.json` in the scratch folder, read by the zygote
at start); a `Job` is one line on the zygote's stdin per attempt at a submission.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from checker.engine._catalog import Choices


@dataclass(frozen=True)
class Config:
    """The class run's settings for the zygote, its reapers and workers."""

    draws: str  # the grader's draws: an `.npz` of `<slot>.<argument>` stacked over the draws
    labels: str  # a JSON file: slot -> the draws' labels
    arity: dict[str, int]  # slot -> how many arguments each draw holds
    timeout: float  # seconds an answer may run
    memory_mb: int  # megabytes an answer may take beyond JAX's own (0: no limit)
    kit: str  # the folder the kit's `checker` package is in
    hidden: tuple[str, ...]  # the grader's folders, never in a worker's view
    answers: tuple[str, ...]  # the kit's reference answers and the packs' folders, emptied in a worker's view
    packs: tuple[tuple[str, str], ...]  # (folder, catalog text) of each pack in use
    processes: int  # processes and threads a job may have (0: no limit)
    variants: dict[str, tuple[str, Choices]] = field(default_factory=dict)  # slot -> (puzzle, choices)

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str | bytes) -> Config:
        data: dict[str, Any] = json.loads(text)
        return cls(
            draws=str(data["draws"]),
            labels=str(data["labels"]),
            arity={str(name): int(count) for name, count in data["arity"].items()},
            timeout=float(data["timeout"]),
            memory_mb=int(data["memory_mb"]),
            kit=str(data["kit"]),
            hidden=tuple(str(p) for p in data["hidden"]),
            answers=tuple(str(p) for p in data["answers"]),
            packs=tuple((str(folder), str(text)) for folder, text in data["packs"]),
            processes=int(data["processes"]),
            variants={str(slot): (str(name), tuple((str(k), v) for k, v in chosen))
                      for slot, (name, chosen) in data["variants"].items()},
        )


@dataclass(frozen=True)
class Job:
    """One attempt at a submission: which of its answers to run, where, as whom."""

    id: str  # "<submission>.<attempt>": names the job in every event about it
    jobdir: str  # the attempt's folder: the worker's results, stderr and `current`
    root: str  # the worker's private copy of the submission's answer files (its working directory)
    home: str  # the submission's folder, holding `root` and every attempt's `jobdir`
    uid: int | None  # the unprivileged uid the worker runs as (None: the grader's own)
    enclose: bool  # namespaces of its own (the zygote found it can)
    batch: bool  # trace the answers and run them as one program first
    puzzles: tuple[tuple[str, str], ...]  # (slot, answer file relative to `root`) per puzzle to run
    indices: tuple[int, ...]  # each puzzle's index in the submission: its results' file names

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str | bytes) -> Job:
        data: dict[str, Any] = json.loads(text)
        uid = data["uid"]
        return cls(
            id=str(data["id"]),
            jobdir=str(data["jobdir"]),
            root=str(data["root"]),
            home=str(data["home"]),
            uid=None if uid is None else int(uid),
            enclose=bool(data["enclose"]),
            batch=bool(data["batch"]),
            puzzles=tuple((str(slot), str(path)) for slot, path in data["puzzles"]),
            indices=tuple(int(i) for i in data["indices"]),
        )
