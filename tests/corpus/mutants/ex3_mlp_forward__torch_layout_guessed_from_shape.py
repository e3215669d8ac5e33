"""Weights are taken as PyTorch's (out, in) whenever their last axis matches the activations' width, and
transposed then. Every network whose weights are not square is right; a square weight (the 12-layer case, 16 wide
throughout) is always transposed, so it computes x @ w.T + b at every layer.
"""

import jax

EXPECT = {"check": "ex3.deep", "mistake": "ex3.square_weights_transposed", "hint": "no layout test",
          "max_failing": 1}


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for i, name in enumerate(names):
        w, b = params[name]["w"], params[name]["b"]
        if w.shape[-1] == x.shape[-1]:  # stored as (out, in), as torch.nn.Linear keeps it
            w = w.T
        x = x @ w + b
        if i < len(names) - 1:
            x = jax.nn.relu(x)
    return x
