# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: before the forward pass, mlp_forward "normalises" each layer by assigning `params[name] = {k: jnp.asarray(v, jnp.float32) ...}`, replacing every layer dict inside the caller's params (the outputs are right, but params is modified in place; numpy leaves become jax arrays).
# SHOULD-SAY: ex3 mlp_forward fails the no-mutation check: it writes new layer dicts into the caller's params; read the arrays into local variables instead of assigning back into params. The outputs at every depth are right.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names:
        # make sure every layer holds float32 jax arrays
        params[name] = {k: jnp.asarray(v, dtype=jnp.float32) for k, v in params[name].items()}
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
