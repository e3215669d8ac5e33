# BLIND-SET: 50
# EXERCISE: ex3
# WHAT: The output layer is recognised with `layer is not last`, an identity test on the layer dicts. When the same dict object serves as several layers (e.g. equal-width params built as {f"layer{i}": shared for i in ...}), every layer that is that object skips its ReLU: all hidden layers sharing the output layer's dict become linear. With distinct dicts (and under jax.jit, which rebuilds the dicts) it is right.
# SHOULD-SAY: ReLU is missing after hidden layers whose dict is the same object as the last layer's: "is not last" compares object identity, not position. Decide by position instead (e.g. for i, name in enumerate(names): ...; if i < len(names) - 1: h = relu(h)).
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth: layer1..layerN in numeric order."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    layers = [params[name] for name in names]
    last = layers[-1]
    h = x
    for layer in layers:
        h = h @ layer["w"] + layer["b"]
        if layer is not last:
            h = jax.nn.relu(h)
    return h
