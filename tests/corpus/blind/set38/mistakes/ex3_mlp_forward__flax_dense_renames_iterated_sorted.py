# BLIND-SET: 38
# EXERCISE: ex3
# WHAT: The params are re-keyed in the right numeric order to Flax auto-names Dense_0..Dense_{N-1}, but the new dict is then walked in sorted string order (Dense_0, Dense_1, Dense_10, Dense_11, Dense_2, ...). Up to 10 layers the output is right; with 11 or 12 layers the layers run out of order (a shape error with unequal widths, wrong values with equal widths).
# SHOULD-SAY: From 11 layers on, the order is wrong: after renaming to Dense_<i> you iterate sorted(...) over the names as strings, which puts Dense_10 before Dense_2. Iterate in numeric order (keep the list you built, or sort by int(i)) so that layer10 comes after layer9.
"""Exercise 3: a generic MLP; I convert the params to Flax's layout (Dense_i / kernel / bias) first."""

import jax
import jax.numpy as jnp


def _to_flax(params):
    """{'layer1': {'w', 'b'}, ...} -> {'Dense_0': {'kernel', 'bias'}, ...}, without touching params."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    return {
        f"Dense_{i}": {"kernel": params[name]["w"], "bias": params[name]["b"]}
        for i, name in enumerate(names)
    }


def _dense(module, h):
    return h @ module["kernel"] + module["bias"]


def mlp_forward(params, x):
    """ReLU after every layer but the last."""
    variables = _to_flax(params)
    modules = [variables[name] for name in sorted(variables)]  # FrozenDict order
    for module in modules[:-1]:
        x = jax.nn.relu(_dense(module, x))
    return _dense(modules[-1], x)
