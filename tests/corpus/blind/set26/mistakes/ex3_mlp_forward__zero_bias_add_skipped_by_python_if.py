# BLIND-SET: 26
# EXERCISE: ex3
# WHAT: each layer adds its bias only `if jnp.any(b != 0)` ("biases start at zero, skip the useless add"); eagerly the outputs are identical, but under jax.jit with params as an argument the Python if on a traced array raises TracerBoolConversionError, so mlp_forward cannot be jitted.
# SHOULD-SAY: mlp_forward fails under jax.jit because a Python `if` tests the values of a traced bias (jnp.any(b != 0)); always add the bias (adding zeros costs nothing and is traceable) and branch only on static things such as the layer's position.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def _dense(layer, x):
    """x @ w + b, skipping the addition while the bias is still all zeros."""
    out = x @ layer["w"]
    if jax.numpy.any(layer["b"] != 0):
        out = out + layer["b"]
    return out


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(_dense(params[name], x))
    last = params[names[-1]]
    return _dense(last, x)
