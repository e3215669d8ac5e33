# BLIND-SET: 39
# EXERCISE: ex3
# WHAT: Each layer runs through jax.lax.switch(kind, [input_layer, hidden_layer, output_layer], ...) with kind = 0 if i == 0 else (2 if i == last else 1); the input branch (flatten x, dense, ReLU) is chosen for i == 0 before the output test, so a 1-layer MLP (where layer1 is also the output layer) gets a ReLU on its output. Depths >= 2 are right.
# SHOULD-SAY: With a single layer your MLP applies ReLU to the output: your branch index checks "first layer" before "last layer", and with N = 1 the only layer is both, so the input branch (with its ReLU) wins. Test for the last layer first (the output layer never gets a ReLU), e.g. kind = 2 if i == last else (0 if i == 0 else 1).
"""Exercise 3: a generic MLP with a lax.switch per layer kind."""

import jax
import jax.numpy as jnp


def _input_layer(h, w, b):
    h = h.reshape(h.shape[0], -1)
    return jax.nn.relu(h @ w + b)


def _hidden_layer(h, w, b):
    return jax.nn.relu(h @ w + b)


def _output_layer(h, w, b):
    return h @ w + b


_BRANCHES = (_input_layer, _hidden_layer, _output_layer)


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    names = sorted(params, key=lambda n: int(n.removeprefix("layer")))
    last = len(names) - 1
    h = x
    for i, name in enumerate(names):
        kind = 0 if i == 0 else (2 if i == last else 1)
        with jax.named_scope(name):
            h = jax.lax.switch(kind, _BRANCHES, h, params[name]["w"], params[name]["b"])
    return h
