# BLIND-SET: 32
# EXERCISE: ex3
# WHAT: each Dense layer takes its position from a class-level counter (`Dense.count += 1; self.index = Dense.count`) that is never reset, and the MLP applies ReLU when `layer.index < len(self.layers)`. The first call is right; on every later call the indices keep counting past the depth, so no layer gets a ReLU (wrong at every depth >= 2; depth 1 is unaffected).
# SHOULD-SAY: Only the first call applies the hidden ReLUs: Dense.count is a class attribute shared by every Dense ever built, so layer indices keep growing across calls and the "not the last layer" test fails for all of them. Number the layers per model (enumerate(self.layers) in the MLP, or pass the position into Dense), not with a class-wide counter.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


class Dense:
    """One affine layer; numbers itself in order of construction."""

    count = 0

    def __init__(self, w, b):
        Dense.count += 1
        self.index = Dense.count
        self.w = w
        self.b = b

    def __call__(self, x):
        return x @ self.w + self.b


class MLP:
    """Layers in numeric order layer1..layerN."""

    def __init__(self, params):
        names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
        self.layers = [Dense(params[name]["w"], params[name]["b"]) for name in names]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
            if layer.index < len(self.layers):
                x = jax.nn.relu(x)
        return x


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    return MLP(params)(x)
