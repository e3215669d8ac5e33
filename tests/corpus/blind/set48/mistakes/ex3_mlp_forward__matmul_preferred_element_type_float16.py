# BLIND-SET: 48
# EXERCISE: ex3
# WHAT: Each layer is jnp.matmul(h, w, preferred_element_type=jnp.float16), read as "accumulate in a fast type": it rounds every matmul result to float16 (adding the float32 bias promotes back to float32), so outputs are off by about 4e-4 to 2e-3 relative to the float32 forward pass (more with depth), far beyond float32 tolerance; large activations could overflow to inf. Order, ReLU placement and depth handling are right.
# SHOULD-SAY: The output must be float32 and match the float32 forward pass; preferred_element_type sets the dtype of the matmul result, and float16 loses precision. Drop preferred_element_type (or pass jnp.float32): plain h @ w + b.
"""Exercise 3: a generic MLP with an explicit matmul result type."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    h = x
    for i, name in enumerate(names):
        layer = params[name]
        h = jnp.matmul(h, layer["w"], preferred_element_type=jnp.float16) + layer["b"]
        if i < len(names) - 1:
            h = jax.nn.relu(h)
    return h
