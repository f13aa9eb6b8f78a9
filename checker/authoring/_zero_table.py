"""Rewrites the table of zero-crossing draws shipped with the kit (`checker/_data/zeros.npz`):

    python -m checker.authoring._zero_table

after a change to a canonical puzzle or to the search (`tests/test_zero_draws.py` fails when the
table is stale). It searches every canonical puzzle afresh: a few minutes on two cores.
"""

from __future__ import annotations

from checker.engine import _sampling, _zeros

if __name__ == "__main__":  # pragma: no cover - rewrites the shipped table
    print(f"{_zeros.write_table(_sampling.SAMPLER)} puzzles searched; written to {_zeros.TABLE}")
