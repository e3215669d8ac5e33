# BLIND-SET: 37
# EXERCISE: ex3
# WHAT: mlp_forward is jitted with donate_argnums=(1,) so XLA may write the output into x's buffer; whenever the output fits x's buffer (input width equal to output width, as in the equal-width models) the caller's x is deleted by the call, so reusing x (e.g. for a second forward pass or a jit comparison) raises "Array has been deleted".
# SHOULD-SAY: mlp_forward destroys its input: donate_argnums=(1,) gives x's buffer to XLA, and when the output has x's size the caller's x is invalidated. A forward pass must leave its arguments usable; remove donate_argnums (keep the jax.jit if you like).
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import functools

import jax


# The input batch is consumed by the forward pass: let XLA reuse its buffer.
@functools.partial(jax.jit, donate_argnums=(1,))
def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
