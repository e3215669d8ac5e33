# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: mlp_forward is decorated with functools.partial(jax.jit, static_argnums=0): params (a dict) becomes a static argument, which must be hashable, so every call raises ValueError.
# SHOULD-SAY: ex3: every check errors with ValueError 'Non-hashable static arguments are not supported' (params marked static in jax.jit); the module imports fine and the forward logic itself is right.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import functools

import jax


@functools.partial(jax.jit, static_argnums=0)
def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
