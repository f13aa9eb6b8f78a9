"""Mutation testing for the checker: plausible wrong answers, and an independent proof that they are wrong.

Used by the kit's tests (tests/mutation/score.py, tests/test_mutation.py) and by `jacpuzzles pack
check`, which prints a pack's mutation score so that its author sees whether the draws catch
mistakes.

* `mutants(puzzle)` rewrites the reference answer of a puzzle (the part of
  `solutions/<chapter>/<puzzle>.py` below the marker line) with `ast` transforms, one operator at
  one site per mutant, and returns full files (header + mutated answer), each with a stable id
  `<puzzle>:<operator>:<site>`. The operators are registered once, in `_operators.REGISTRY`.
* `prove_wrong(puzzle, path)` runs an answer file on float64 inputs of its own (`_draws`: a
  dense set, never the checker's sampler, and witness candidates: the zeros of the expected
  Jacobian from the kit's table, near-ties, magnitudes) and returns a `Witness` (an input where
  the answer is wrong inside the checker's accuracy contract, is not finite, has the wrong
  shape, or raises) or None (`_prover`).

`python3 -m checker.authoring.mutation PUZZLE...` lists a puzzle's mutants and which are proven wrong.
"""

from checker.authoring.mutation._draws import Inputs, inputs, witness_inputs
from checker.authoring.mutation._mutants import Mutant, mutants, write
from checker.authoring.mutation._operators import (
    CORE,
    FD_STEPS,
    OPERATORS,
    PRECISION,
    REGISTRY,
    WHOLE_ANSWER,
    Operator,
)
from checker.authoring.mutation._prover import (
    TOLERANCE,
    Witness,
    prove_many,
    prove_wrong,
)
from checker.authoring.mutation._reference import (
    MARKER,
    reference_path,
    split_reference,
)

__all__ = [
    "CORE", "FD_STEPS", "MARKER", "OPERATORS", "PRECISION", "REGISTRY", "TOLERANCE", "WHOLE_ANSWER",
    "Inputs", "Mutant", "Operator", "Witness", "inputs", "mutants", "prove_many", "prove_wrong",
    "reference_path", "split_reference", "witness_inputs", "write",
]
