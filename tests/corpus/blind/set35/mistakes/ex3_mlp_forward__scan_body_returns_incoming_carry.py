# BLIND-SET: 35
# EXERCISE: ex3
# WHAT: hidden layers after the first that share one square shape are run with lax.scan over their stacked params, but the scan body returns (carry, new) instead of (new, new), so the carry never changes and those middle layers are skipped. Outputs are wrong for equal-width MLPs of depth 3 and more (depths 1 and 2, and unequal widths that take the Python loop, are right).
# SHOULD-SAY: In lax.scan the first value the body returns is the next carry; return the new activation as the carry (return h_new, None, or h_new, h_new). As written the scanned layers are computed and thrown away.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp
from jax import lax


def _dense(h, layer):
    """h @ w + b written as a dot_general contraction."""
    return lax.dot_general(h, layer["w"], (((1,), (0,)), ((), ()))) + layer["b"]


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    layers = [params[name] for name in names]
    hidden, last = layers[:-1], layers[-1]
    if hidden:
        x = jax.nn.relu(_dense(x, hidden[0]))
        rest = hidden[1:]
        shape = rest[0]["w"].shape if rest else None
        if rest and shape[0] == shape[1] and all(layer["w"].shape == shape for layer in rest):
            stacked = jax.tree_util.tree_map(lambda *leaves: jnp.stack(leaves), *rest)

            def body(h, layer):
                h_new = jax.nn.relu(_dense(h, layer))
                return h, h_new

            x, _ = lax.scan(body, x, stacked)
        else:
            for layer in rest:
                x = jax.nn.relu(_dense(x, layer))
    return _dense(x, last)
