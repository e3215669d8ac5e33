# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: Uses the NTK parameterisation: every layer computes x @ w / sqrt(fan_in) + b. The lesson's params are already He-initialised, so all pre-activations are shrunk by sqrt(fan_in).
# SHOULD-SAY: ex3 value checks fail at every depth (outputs scaled down by 1/sqrt(fan_in) per layer); shapes, order and ReLU placement are right.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] / jnp.sqrt(x.shape[-1]) + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] / jnp.sqrt(x.shape[-1]) + last["b"]
