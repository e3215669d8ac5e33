# BLIND-SET: 32
# EXERCISE: ex3
# WHAT: per-layer configs are built with `dict.fromkeys(names, {"activation": "relu"})`, which gives every layer the same dict object; setting the last layer's activation to "identity" sets it for all of them. No layer gets a ReLU: a purely linear network, wrong at every depth >= 2 (depth 1 is right).
# SHOULD-SAY: The hidden layers have no ReLU: dict.fromkeys puts one shared config dict under every layer name, so changing the output layer's activation to identity changes every layer's. Build a fresh dict per layer ({name: {"activation": "relu"} for name in names}) before overriding the last one.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


ACTIVATIONS = {"relu": jax.nn.relu, "identity": lambda h: h}


def _layer_configs(names):
    """One config per layer: ReLU everywhere but on the output layer."""
    configs = dict.fromkeys(names, {"activation": "relu"})
    configs[names[-1]]["activation"] = "identity"
    return configs


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    configs = _layer_configs(names)
    for name in names:
        activation = ACTIVATIONS[configs[name]["activation"]]
        x = activation(x @ params[name]["w"] + params[name]["b"])
    return x
