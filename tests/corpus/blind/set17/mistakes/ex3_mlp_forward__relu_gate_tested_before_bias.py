# BLIND-SET: 17
# EXERCISE: ex3
# WHAT: hidden layers decide which units are active from x @ w before the bias is added (jnp.where(z > 0, z + b, 0)), so units whose sign flips when the bias is added are gated wrongly (negative outputs survive, positive ones are zeroed)
# SHOULD-SAY: layer order (numeric, layer10 after layer9), depth from the params, no ReLU on the output and leaving params untouched are right, but the hidden activation is not ReLU(x @ w + b): the gate tests the pre-bias value; add the bias first and apply ReLU to the whole pre-activation, jax.nn.relu(x @ w + b)
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import jax
import jax.numpy as jnp

# --- Your code ----------------------------------------------------------------


def _layer_number(name):
    return int(name[len("layer"):])


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    names = sorted(params.keys(), key=_layer_number)
    h = x
    for depth, name in enumerate(names, start=1):
        w, b = params[name]["w"], params[name]["b"]
        z = jnp.matmul(h, w)
        if depth < len(names):
            # only units with a positive response pass (ReLU), with their bias
            h = jnp.where(z > 0, z + b, 0.0)
        else:
            h = z + b
    return h
