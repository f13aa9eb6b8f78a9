"""Rewrites the table of zero-crossing draws shipped with the kit (`checker/_data/zeros/`, a file per puzzle):

    python -m checker.authoring._zero_table [--jobs N] [--fresh]

after a change to a puzzle, a variant or the search (`tests/test_zero_draws.py` fails when the
table is stale). It keeps the rows of the variants that did not change and searches the others,
one process per job; `--fresh` searches all of them (about 6 minutes on two cores for the 1034
variants). After a change to the sampler's random draws, search afresh: the rows' keys do not
see it.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from checker.engine import _catalog, _sampling, _variants, _zeros


def _every_variant() -> list[tuple[str, int, str]]:
    return [(p.name, k, _zeros.key(v)) for p in _catalog.puzzles() for k, v in enumerate(_variants.variants(p))]


def _kept(keys: set[str]) -> dict[str, Any]:
    """The current table's rows of the variants in `keys`."""
    return {row: _zeros.shipped(name)[row] for row, name in _zeros.shipped_rows().items()
            if row.split("-", 1)[0] in keys}


def _search(which: tuple[str, int, str]) -> dict[str, Any]:
    name, k, _ = which
    return _zeros.searched(_variants.variants(name)[k], _sampling.SAMPLER)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m checker.authoring._zero_table",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes searching at once")
    parser.add_argument("--fresh", action="store_true", help="search every variant, also those the table holds")
    options = parser.parse_args(argv)
    every = _every_variant()
    arrays = {} if options.fresh else _kept({key for _, _, key in every})
    todo = [which for which in every if f"{which[2]}-labels" not in arrays]
    print(f"{len(every) - len(todo)} variants kept from the table, {len(todo)} to search")
    # JAX's threads do not survive a fork: the searching processes start afresh.
    with ProcessPoolExecutor(max_workers=options.jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        for done, rows in enumerate(pool.map(_search, todo, chunksize=4), 1):
            arrays |= rows
            if done % 50 == 0 or done == len(todo):
                print(f"{done}/{len(todo)} variants searched", flush=True)
    owner = {key: name for name, _, key in every}
    by_puzzle: dict[str, dict[str, Any]] = {}
    for row, value in arrays.items():
        by_puzzle.setdefault(owner[row.split("-", 1)[0]], {})[row] = value
    _zeros.write_table(by_puzzle)
    print(f"written to {_zeros.TABLE}")


if __name__ == "__main__":  # pragma: no cover - rewrites the shipped table
    main()
