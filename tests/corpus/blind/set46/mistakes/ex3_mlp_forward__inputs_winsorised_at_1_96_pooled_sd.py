# BLIND-SET: 46
# EXERCISE: ex3
# WHAT: x is winsorised at mean +/- 1.96 standard deviations of all its entries (pooled over batch and features) before the first layer, so any input entry outside that band is clipped and the outputs differ from the plain MLP (for standard-normal x about 5% of entries change).
# SHOULD-SAY: the inputs are clipped at +/- 1.96 SD before the first layer, which changes the outputs; mlp_forward must use x as given. Remove the winsorising of x.
"""Exercise 3: a generic MLP with outlier-robust inputs."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order.

    Inputs are winsorised at the central 95% band of a normal fit to the
    pooled entries (mean +/- 1.96 SD), a standard guard against outliers.
    """
    mu = jnp.mean(x)
    sd = jnp.std(x)
    h = jnp.clip(x, mu - 1.96 * sd, mu + 1.96 * sd)
    depth = len(params)
    for i in range(1, depth + 1):
        layer = params[f"layer{i}"]
        h = h @ layer["w"] + layer["b"]
        if i < depth:
            h = jax.nn.relu(h)
    return h
