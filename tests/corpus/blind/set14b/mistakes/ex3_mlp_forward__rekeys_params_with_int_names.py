# BLIND-SET: 14
# EXERCISE: ex3
# WHAT: to sort the layers numerically, mlp_forward renames the caller's dict in place (params[1] = params.pop("layer1"), ...), so the output is right but the params passed in come back with integer keys.
# SHOULD-SAY: The outputs are right at every depth (numeric order, ReLU after every layer but the last, agreement under jax.jit), but mlp_forward modifies its argument: after a call, params has keys 1..N instead of "layer1".."layerN", which breaks any other code using the same dict. Sort a list of names (sorted(params, key=...)) or work on a new dict instead of popping from params.
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    # Use integer keys so that the layers sort numerically (layer10 after layer9).
    for name in list(params):
        if isinstance(name, str):
            params[int(name.removeprefix("layer"))] = params.pop(name)
    order = sorted(params)
    for i in order[:-1]:
        x = jax.nn.relu(x @ params[i]["w"] + params[i]["b"])
    last = params[order[-1]]
    return x @ last["w"] + last["b"]
