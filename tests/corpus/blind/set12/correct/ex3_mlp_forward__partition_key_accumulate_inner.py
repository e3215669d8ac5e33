# BLIND-SET: 12
# EXERCISE: ex3
# WHAT: Layer order from int(name.partition("layer")[2]); the hidden layers are folded with itertools.accumulate(initial=x) keeping the last value, and each affine map is jnp.inner(h, w.T) + b.
# SHOULD-SAY: Everything correct: numeric layer order (layer10 after layer9), depth read from params, ReLU after every layer but the last, works for N=1, params not modified, same results under jit.
"""Exercise 3: a generic MLP (partition-parsed order, itertools.accumulate)."""

import itertools

import jax
import jax.numpy as jnp


def _affine(h, layer):
    return jnp.inner(h, layer["w"].T) + layer["b"]


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    order = sorted(params, key=lambda name: int(name.partition("layer")[2]))
    layers = [params[name] for name in order]
    hidden = itertools.accumulate(
        layers[:-1], lambda h, layer: jax.nn.relu(_affine(h, layer)), initial=x
    )
    *_, h = hidden
    return _affine(h, layers[-1])
