# BLIND-SET: 52
# EXERCISE: ex3
# WHAT: the forward pass is itertools.accumulate(layers, lambda h, p: jax.nn.relu(h) @ p["w"] + p["b"], initial=x), keeping pre-activations as the running value so the last one has no ReLU; but the ReLU in the step then also hits the initial value, the input x. Any input with negative entries gives wrong outputs, at every depth including 1.
# SHOULD-SAY: mlp_forward applies ReLU to the input x before layer1 (negative inputs are zeroed). Running the ReLU at the start of each step puts it before every layer, including the first. Apply it after each hidden layer instead, e.g. reduce over the hidden layers with relu(h @ w + b) and finish with the last layer without ReLU.
"""Exercise 3: a generic MLP (accumulate over pre-activations)."""

from itertools import accumulate

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    layers = map(params.__getitem__, sorted(params, key=lambda n: int(n.removeprefix("layer"))))
    *_, out = accumulate(layers, lambda h, p: jax.nn.relu(h) @ p["w"] + p["b"], initial=x)
    return out
