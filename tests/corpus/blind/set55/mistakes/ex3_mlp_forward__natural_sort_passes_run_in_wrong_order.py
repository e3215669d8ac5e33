# BLIND-SET: 55
# EXERCISE: ex3
# WHAT: the forum "natural sort in two stable passes" recipe (sort by name, then by length) is run in the reverse order (by length first, then plain sorted by name), so the final pass is a string sort: with 10 or more layers layer10..layer12 run straight after layer1 and the output is wrong (or a shape error with unequal widths); up to 9 layers it is right.
# SHOULD-SAY: With two stable sorts the LAST one is the primary key; you sort by name last, so the order is string order (layer1, layer10, layer11, layer2, ...). Sort by name first and by len last, or sort by the integer after "layer".
"""Exercise 3: MLP of any depth (natural order via two stable sorts, from a forum answer)."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    names = list(params)
    names.sort(key=len)   # layer1..layer9 before layer10..
    names = sorted(names)  # then alphabetical within equal length (stable)
    *hidden, last = names
    out = x
    for name in hidden:
        layer = params[name]
        out = jnp.clip(jnp.matmul(out, layer["w"]) + layer["b"], 0.0, None)
    return jnp.matmul(out, params[last]["w"]) + params[last]["b"]
