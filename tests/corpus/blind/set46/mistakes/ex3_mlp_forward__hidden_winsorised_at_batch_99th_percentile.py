# BLIND-SET: 46
# EXERCISE: ex3
# WHAT: after each hidden ReLU the activations are winsorised per unit at the batch's 99th percentile (jnp.quantile over the batch axis), so the largest activation of each hidden unit is pulled down whenever B > 1 and the outputs of every model with at least one hidden layer differ from the plain MLP; depth 1 (no hidden layer) is unaffected.
# SHOULD-SAY: the hidden activations are clipped at a batch percentile, which the MLP must not do: it changes the outputs and makes each example's output depend on the rest of the batch. Apply only ReLU after each hidden layer (x @ w + b, then jax.nn.relu), with no winsorising.
"""Exercise 3: a generic MLP, robust to outlying hidden activations."""

import jax
import jax.numpy as jnp


def _layer_number(name):
    return int(name.removeprefix("layer"))


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order.

    Hidden activations are winsorised at the 99th percentile of the batch,
    per unit, so one extreme example cannot dominate the next layer.
    """
    names = sorted(params, key=_layer_number)
    for name in names[:-1]:
        h = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
        upper = jnp.quantile(h, 0.99, axis=0, keepdims=True)
        x = jnp.minimum(h, upper)
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
