# BLIND-SET: 18
# EXERCISE: ex3
# WHAT: a special case for a single-layer network was written by copying the hidden-layer line, so with N=1 the only (output) layer gets a ReLU; deeper networks are handled correctly.
# SHOULD-SAY: layer order (numeric, layer10 after layer9), depth read from params, ReLU placement for N >= 2, no mutation and jit agreement are all right, but for a one-layer network (only layer1) the output goes through ReLU, so negative logits become 0; the single layer is also the last layer: drop the special case or return x @ w + b without ReLU.
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import jax
import jax.numpy as jnp

# --- Your code ----------------------------------------------------------------


def _layer_number(name):
    return int(name[len("layer"):])


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    order = sorted(params.keys(), key=_layer_number)

    if len(order) == 1:
        # Nothing to loop over: a single dense layer.
        only = params[order[0]]
        return jax.nn.relu(jnp.dot(x, only["w"]) + only["b"])

    *hidden, output = order
    h = x
    for name in hidden:
        layer = params[name]
        h = jax.nn.relu(jnp.dot(h, layer["w"]) + layer["b"])
    return jnp.dot(h, params[output]["w"]) + params[output]["b"]
