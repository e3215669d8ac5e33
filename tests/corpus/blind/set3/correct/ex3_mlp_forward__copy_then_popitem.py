# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: Copies params into a new dict ordered by layer number, pops the output layer off the copy (never the original), and folds the hidden layers with a for loop.
# SHOULD-SAY: full marks
"""Exercise 3: a generic MLP that pops the output layer off a sorted copy."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    ordered = {name: params[name] for name in sorted(params, key=lambda n: int(n[len("layer"):]))}
    _, output = ordered.popitem()  # the copy loses its last layer; params is untouched
    for layer in ordered.values():
        x = jax.nn.relu(x @ layer["w"] + layer["b"])
    return x @ output["w"] + output["b"]
