"""A reshape to 28 * 28 inputs, kept from the MNIST code: every network whose input is not 784 wide fails.

The lesson's 784-wide case is right; the others raise on the reshape (ex3.deep and ex3.jit run the 12-layer
network, 16 wide). The hint must say that a reshape failed, not that a layer's shapes did not fit (the
layers fit)."""

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "a reshape failed", "max_failing": 3,
          "also": ["ex3.deep", "ex3.jit"]}

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    x = x.reshape(x.shape[0], 28 * 28)  # images come in flat
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
