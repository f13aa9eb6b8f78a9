"""Splitting a class across machines: `jacpuzzles grade --shard K/N` grades only shard K of N.

A submission's shard is a pure function of its name (sha256 of the name, modulo N), so adding or
removing a student never moves anyone else to another shard, and every machine of a CI matrix
agrees on the split without talking to the others.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Shard:
    """Shard `index` (1-based) of `count`."""

    index: int
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def holds(self, name: str) -> bool:
        """Whether the submission called `name` belongs to this shard."""
        return shard_of(name, self.count) == self.index


def shard_of(name: str, count: int) -> int:
    """The shard (1-based, of `count`) a submission's name falls in."""
    return int.from_bytes(hashlib.sha256(name.encode("utf-8", "surrogateescape")).digest()[:8], "big") % count + 1


def parse(text: str) -> Shard:
    """`"2/5"` as a `Shard`; raises ValueError with what to write instead."""
    match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
    if match is None:
        raise ValueError(f"--shard {text!r} is not K/N: write e.g. --shard 2/5 for the second of five shards")
    index, count = int(match[1]), int(match[2])
    if count < 1 or not 1 <= index <= count:
        raise ValueError(f"--shard {text}: K must be between 1 and N, and N at least 1 (e.g. --shard "
                         f"1/{max(count, 2)})")
    return Shard(index, count)
