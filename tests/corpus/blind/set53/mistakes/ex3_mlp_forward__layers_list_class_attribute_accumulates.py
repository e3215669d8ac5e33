# BLIND-SET: 53
# EXERCISE: ex3
# WHAT: `Sequential.layers = []` is a class attribute and `add` appends to it, so every mlp_forward call adds its layers to the same list: the first call is right, and every later call first runs all layers from earlier calls (a shape error when widths differ, silently wrong outputs for equal-width models, and leaked-tracer errors after a call under jax.jit).
# SHOULD-SAY: mlp_forward is only right on its first call: the layer list is a class attribute shared by every Sequential, so layers from earlier calls pile up. Create the list per instance (`self.layers = []` in `__init__` or `field(default_factory=list)`).
"""Exercise 3: a generic MLP that reads its depth from the params pytree (classes)."""

import jax
import jax.numpy as jnp

# --- Your code ----------------------------------------------------------------


class Layer:
    def __init__(self, w, b, activation=None):
        self.w, self.b, self.activation = w, b, activation

    def __call__(self, h):
        z = h @ self.w + self.b
        return self.activation(z) if self.activation is not None else z


class Sequential:
    layers = []

    def add(self, layer):
        self.layers.append(layer)
        return self

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    @classmethod
    def from_params(cls, params):
        model = cls()
        names = sorted(params, key=lambda n: int(n[5:]))
        for i, name in enumerate(names):
            act = jax.nn.relu if i < len(names) - 1 else None
            model.add(Layer(params[name]["w"], params[name]["b"], act))
        return model


def mlp_forward(params, x):
    return Sequential.from_params(params)(x)
