# BLIND-SET: 35
# EXERCISE: ex3
# WHAT: every layer is jnp.einsum("ni,ij", h, w) in implicit mode, whose output subscripts are the free indices in alphabetical order, "jn": each product comes out transposed, (width, batch). Adding the bias then raises a shape error for almost every input (it only runs, with wrong values, when the batch size happens to equal the layer width).
# SHOULD-SAY: Implicit-mode einsum orders the output indices alphabetically, so "ni,ij" means "ni,ij->jn". Write the output explicitly, jnp.einsum("ni,ij->nj", h, w), or use h @ w.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(jnp.einsum("ni,ij", x, params[name]["w"]) + params[name]["b"])
    last = params[names[-1]]
    return jnp.einsum("ni,ij", x, last["w"]) + last["b"]
