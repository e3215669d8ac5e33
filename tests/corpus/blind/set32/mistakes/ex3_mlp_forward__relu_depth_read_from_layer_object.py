# BLIND-SET: 32
# EXERCISE: ex3
# WHAT: both the MLP and each Dense object keep a `.params` attribute; the ReLU test `i < len(layer.params) - 1` reads the Dense layer's {"w", "b"} dict (length 2) instead of the model's params (length N). So ReLU follows layer1 only: depth 1 gets a ReLU on its output, depth 2 is right, depth >= 3 lacks the ReLU after layers 2..N-1.
# SHOULD-SAY: ReLU is applied after the first layer only (and on the output of a one-layer net): the "is this the last layer" test uses len(layer.params), the layer's own w/b dict, instead of the number of layers in the model. Compare with len(self.layers) (or self.params).
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


class Dense:
    """One affine layer holding its own {"w", "b"} params."""

    def __init__(self, params):
        self.params = params

    def __call__(self, x):
        return x @ self.params["w"] + self.params["b"]


class MLP:
    """Layers in numeric order layer1..layerN, ReLU between them."""

    def __init__(self, params):
        self.params = params
        names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
        self.layers = [Dense(params[name]) for name in names]

    def __call__(self, x):
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i < len(layer.params) - 1:
                x = jax.nn.relu(x)
        return x


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    return MLP(params)(x)
