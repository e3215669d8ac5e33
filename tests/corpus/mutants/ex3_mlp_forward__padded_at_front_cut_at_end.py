"""The batch is padded to a multiple of 4 rows for an even split, but the zero rows go in front (jnp.pad's
widths are (before, after)) and the output is cut back with out[:B]: row i holds example i - pad's output, and the
first rows are the padding's. Right only where B is a multiple of 4.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "cut the padding off from the end it was added to",
          "max_failing": 2, "also": ["ex3.deep"]}

#: Rows per block of the batch.
BLOCK = 4


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    batch = x.shape[0]
    pad = -batch % BLOCK
    h = jnp.pad(x, ((pad, 0), (0, 0)))
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return (h @ last["w"] + last["b"])[:batch]
