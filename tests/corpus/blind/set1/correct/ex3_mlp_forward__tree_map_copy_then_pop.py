# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: Copies params with jax.tree.map(lambda a: a, ...) then pops the layers in numeric order from the copy.
# SHOULD-SAY: full marks
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    p = jax.tree.map(lambda a: a, params)
    n = len(jax.tree.leaves(p)) // 2
    for i in range(1, n):
        layer = p.pop(f"layer{i}")
        x = jax.nn.relu(x @ layer["w"] + layer["b"])
    last = p.pop(f"layer{n}")
    return x @ last["w"] + last["b"]
