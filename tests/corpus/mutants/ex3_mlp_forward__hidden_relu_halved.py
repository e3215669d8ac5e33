"""Every hidden activation is ReLU times 0.5 (an eval-time dropout keep-probability left in).
"""

import jax

EXPECT = {"check": "ex3.deep", "mistake": "", "hint": "ReLU times 0.5", "max_failing": 2, "also": ["ex3.depths"]}


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        # dropout (keep_prob 0.5) at inference: scale by the keep probability
        x = 0.5 * jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
