"""The hidden activation is the mask (h > 0) itself, a step, not h where h > 0.
"""

import jax

EXPECT = {"check": "ex3.deep", "mistake": "", "hint": "a step", "max_failing": 2, "also": ["ex3.depths"]}


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        h = x @ params[name]["w"] + params[name]["b"]
        x = (h > 0).astype(h.dtype)  # ReLU: keep the positive part
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
