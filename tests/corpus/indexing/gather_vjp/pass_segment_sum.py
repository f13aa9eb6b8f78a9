# expect: pass
# Correct: jax.ops.segment_sum over the flattened batch, with idx as the segment ids.
import jax


def vjp(embeddings, idx, g):
    return jax.ops.segment_sum(g.reshape(24, 4), idx.reshape(24), num_segments=27)
