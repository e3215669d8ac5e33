# BLIND-SET: 14
# EXERCISE: ex3
# WHAT: the depth is found by walking "layer1", "layer2", ... until a KeyError (EAFP style) into a list, which is unpacked as *hidden, output; affine maps use jax.lax.dot and the ReLU is jnp.maximum.
# SHOULD-SAY: Full marks: agrees with the reference at every depth (1, 2, 3, 5, 12) and width pattern whatever order the dict lists its layers in, ReLU after every layer but the last, depth taken from params rather than hard-coded, params left unmodified, same results under jax.jit.
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import jax
import jax.numpy as jnp


def _layers_in_order(params):
    layers = []
    index = 1
    while True:
        try:
            layers.append(params[f"layer{index}"])
        except KeyError:
            return layers
        index += 1


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    *hidden, output = _layers_in_order(params)
    for layer in hidden:
        x = jnp.maximum(jax.lax.dot(x, layer["w"]) + layer["b"], 0.0)
    return jax.lax.dot(x, output["w"]) + output["b"]
