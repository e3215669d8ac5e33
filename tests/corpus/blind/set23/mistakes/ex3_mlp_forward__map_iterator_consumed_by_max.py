# BLIND-SET: 23
# EXERCISE: ex3
# WHAT: the layer numbers are a map() iterator; max(numbers) exhausts it, so sorted(numbers) is empty, no layer is ever applied, and mlp_forward returns its input x unchanged (shape (B, d0)) at every depth
# SHOULD-SAY: mlp_forward returns the input unchanged (shape (B, d0), not (B, dN)) at every depth: numbers is a one-shot map iterator, max(numbers) consumes it, and the loop over sorted(numbers) then runs zero times. Materialise the numbers first (sorted(...) or list(map(...))) and take the max of that list.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    numbers = map(lambda name: int(name.removeprefix("layer")), params)
    last = max(numbers)
    for i in sorted(numbers):
        layer = params[f"layer{i}"]
        x = x @ layer["w"] + layer["b"]
        if i != last:
            x = jax.nn.relu(x)
    return x
