# BLIND-SET: 12
# EXERCISE: ex3
# WHAT: mlp_forward is written for a single example and vmapped with the default in_axes=0, so vmap also tries to map over the params leaves.
# SHOULD-SAY: mlp_forward fails (vmap reports inconsistent mapped sizes, or maps rows of the weights when sizes happen to match): params must not be batched, use in_axes=(None, 0). The layer ordering (numeric, layer10 after layer9), ReLU placement and the untouched params are all right.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))

    def single(params, xi):
        for name in names[:-1]:
            xi = jax.nn.relu(xi @ params[name]["w"] + params[name]["b"])
        last = params[names[-1]]
        return xi @ last["w"] + last["b"]

    return jax.vmap(single)(params, x)
