"""Each matmul wider than 512 inputs is summed over blocks of 512, and the loop stops at the last whole block:
the lesson's 784 inputs lose their last 272. Narrow layers are right.
"""

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "last, shorter tile", "max_failing": 1}

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(_blocked_matmul(x, params[name]["w"]) + params[name]["b"])
    last = params[names[-1]]
    return _blocked_matmul(x, last["w"]) + last["b"]


def _blocked_matmul(x, w, block=512):
    """x @ w summed over blocks of the input axis, to bound the size of each product."""
    n = x.shape[-1]
    if n <= block:
        return x @ w
    out = 0.0
    for start in range(0, n - block + 1, block):  # whole blocks only
        out = out + x[:, start:start + block] @ w[start:start + block]
    return out
