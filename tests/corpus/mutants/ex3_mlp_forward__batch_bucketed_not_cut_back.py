"""mlp_forward fills the batch up with zero rows to the next multiple of 16 (so that few batch shapes compile)
and returns the filled batch's outputs without cutting them back: a batch of 5 gives 16 rows, the first 5
right and the rest the network's output for zero inputs. The report measures the rows: the first B right, then
rows x does not have. The 12-layer case's rows are right in numeric order, so the order is not charged.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.depths", "mistake": "ex3.rows_added", "hint": "cut back", "max_failing": 1}

BUCKET = 16


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    filled = -(-x.shape[0] // BUCKET) * BUCKET
    x = jnp.concatenate([x, jnp.zeros((filled - x.shape[0],) + x.shape[1:], x.dtype)])
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
