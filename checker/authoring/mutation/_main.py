"""`python3 -m checker.authoring.mutation PUZZLE...`: list the mutants of puzzles, proven or not."""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from checker.authoring.mutation._mutants import mutants, write
from checker.authoring.mutation._prover import prove_many


def main(argv: Sequence[str] | None = None) -> int:  # pragma: no cover - a debugging aid
    """List each puzzle's mutants: id, WRONG (with its witness) or equiv, and what changed."""
    args = list(sys.argv[1:] if argv is None else argv)
    for name in args:
        with tempfile.TemporaryDirectory() as tmp:
            found = mutants(name)
            proofs = prove_many(name, [write(m, Path(tmp) / str(k)) for k, m in enumerate(found)])
            for m, witness in zip(found, proofs):
                print(f"{m.id:45s} {'WRONG' if witness else 'equiv'}  {m.detail}")
                if witness:
                    print(f"    {witness}"[:300])
    return 0
