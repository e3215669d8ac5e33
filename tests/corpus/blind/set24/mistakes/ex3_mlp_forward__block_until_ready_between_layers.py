# BLIND-SET: 24
# EXERCISE: ex3
# WHAT: after each hidden layer the student calls x = x.block_until_ready(), believing async dispatch could otherwise run the layers out of order; eagerly this only costs time, but under jax.jit the activations are tracers, which have no block_until_ready method, so jax.jit(mlp_forward) raises AttributeError (for every depth of 2 or more).
# SHOULD-SAY: mlp_forward fails under jax.jit: `.block_until_ready()` is not available on traced arrays. Async dispatch never reorders dependent computations — each layer waits for its input automatically — so no synchronisation is needed inside the forward pass; block only when you time or read results on the host (and then use jax.block_until_ready outside jitted code).
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
        x = x.block_until_ready()  # make sure this layer has finished before the next one starts
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
