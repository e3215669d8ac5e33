# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: mlp_forward returns jnp.argmax of the logits (predicted classes, shape (B,)) instead of the logits.
# SHOULD-SAY: ex3 agreement check fails at every depth: output has shape (B,) int32 instead of float32 (B, dN) logits.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return jnp.argmax(x @ last["w"] + last["b"], axis=-1)  # the predicted class
