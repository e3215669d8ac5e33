"""The lesson's three layers written out: the depth is hard-coded to 3.

On the 12-layer network it runs layers 1-3 only: that answer shows the same
mistake, so ex3.deep is not judged (skipped) rather than charged again; the
1- and 2-layer cases raise KeyError, charged in ex3.depths.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.depths", "mistake": "ex3.depth_not_from_params", "max_failing": 1, "hint": "depth must come from params", "also": ["ex3.deep"]}


def mlp_forward(params, x):
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
