"""Kit-wide defaults, in a module that imports nothing (the command line reads them at start-up)."""

DEFAULT_SEED = 0
DEFAULT_TIMEOUT = 30.0  # seconds for importing an answer file and for each call of jac
OUTPUT_CAP = 4000  # characters of a learner's printed output kept
# XLA options for the kit's tiny functions: compile fast rather than run fast (bench/).
FAST_COMPILE = {"xla_backend_optimization_level": 0, "xla_llvm_disable_expensive_passes": True}
