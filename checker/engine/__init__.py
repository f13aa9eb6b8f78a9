"""The engine: the catalog and packs, variants, sampling, the oracles, running an answer,
judging, the verdict and its report: the pipeline every other subsystem uses."""
