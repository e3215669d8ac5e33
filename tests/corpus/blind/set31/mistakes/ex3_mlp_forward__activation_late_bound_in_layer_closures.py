# BLIND-SET: 31
# EXERCISE: ex3
# WHAT: mlp_forward builds one closure per layer in a loop, binding the layer through a default argument (`lambda h, layer=params[name]: act(...)`) but reading `act` from the loop; `act` is looked up at call time, when it holds the last layer's identity, so no layer applies ReLU. The network is purely affine: right at depth 1, wrong at every depth >= 2.
# SHOULD-SAY: No hidden layer applies ReLU: the closures bind `layer` as a default argument but `act` late, so every one of them uses the value `act` has after the loop (the identity chosen for the output layer). Bind it too (`lambda h, layer=params[name], act=act: ...`) or apply ReLU outside the closures.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    layers = []
    for i, name in enumerate(names):
        act = jax.nn.relu if i < len(names) - 1 else (lambda z: z)
        layers.append(lambda h, layer=params[name]: act(h @ layer["w"] + layer["b"]))
    for layer in layers:
        x = layer(x)
    return x
