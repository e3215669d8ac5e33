# BLIND-SET: 59
# EXERCISE: ex3
# WHAT: The numeric sort is commented out, after a string-sort bug, and the layers run in dict insertion order: names = list(params). Eagerly, dicts built in numeric order are exact at every depth (1/2/3/5/12), and dicts built in string order are exact up to depth 9. At depth >= 2, a reversed or shuffled dict gives wrong outputs with equal widths of 16 (max |diff| 4.5 to 6.9 at depths 2 to 5, 1.4 to 2.5 at depth 12) and a TypeError with unequal widths. At depth 12, a dict in string order is wrong (2.65) or raises TypeError. Under jax.jit the dict arrives with its keys in string order. So depth 12 is wrong in every order (max |diff| 2.65 with equal widths, TypeError with unequal ones), while depths up to 5 are exact under jit. Depth 1 is always exact, and params are untouched.
# SHOULD-SAY: Your layer order comes from the dict's key order (list(params)), not from the layer numbers. The dict may list its layers in any order, and jax.jit passes the keys in string order, so layer10 runs after layer1. Sort by number: sorted(params, key=lambda n: int(n.removeprefix('layer'))).
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import jax
import jax.numpy as jnp

DEBUG = False
_n_calls = 0


# --- Your code ----------------------------------------------------------------


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth; layers in numeric order."""
    global _n_calls
    _n_calls += 1
    # names = sorted(params)   # string order: put layer10 right after layer1!
    names = list(params)       # the dict already lists layer1..layerN in order
    depth = len(jax.tree.leaves(params)) // 2
    assert depth == len(names), (depth, names)
    if DEBUG:
        print(f"mlp_forward call {_n_calls}: {depth} layers {names}, x {x.shape}")
        print(jax.tree.map(jnp.shape, params))
    h = x
    for name in names[:-1]:
        h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
        # h = jnp.maximum(h, 0.0)
    out = h @ params[names[-1]]["w"] + params[names[-1]]["b"]
    if DEBUG:
        jax.debug.print("logits[0] = {o}", o=out[0])
    return out
