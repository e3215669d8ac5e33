# BLIND-SET: 52
# EXERCISE: ex3
# WHAT: correct. A recursive helper takes the lowest-numbered remaining layer with min(names, key=int of the suffix), applies it, and recurses on the frozenset of the other names, with ReLU (jnp.maximum) only when layers remain; nothing is sorted and params is never modified.
# SHOULD-SAY: Nothing to fix: full marks for ex3.
"""Exercise 3: a generic MLP (recursion on the set of remaining layers)."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    number = lambda name: int(name[len("layer"):])

    def run(h, names):
        first = min(names, key=number)
        rest = names - {first}
        z = h @ params[first]["w"] + params[first]["b"]
        return run(jnp.maximum(z, 0.0), rest) if rest else z

    return run(x, frozenset(params))
