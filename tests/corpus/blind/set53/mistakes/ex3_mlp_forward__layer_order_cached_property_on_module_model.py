# BLIND-SET: 53
# EXERCISE: ex3
# WHAT: mlp_forward rebinds params on a module-level `MLP` instance, but the layer order is a `functools.cached_property` computed on the first call only. Every later call reuses the first params' layer names: a deeper network is cut to the first depth (silently wrong output when widths are equal, a shape error otherwise) and a shallower one raises KeyError. Only the first call (or calls with the same layer names) is right.
# SHOULD-SAY: mlp_forward uses the layer list of the first params it ever saw: the `order` cached_property lives on a module-level instance and is never recomputed after rebinding params. Compute the order from the params on every call (a plain method, or a new MLP per call).
"""Exercise 3: a generic MLP that reads its depth from the params pytree (classes)."""

import functools

import jax
import jax.numpy as jnp

# --- Your code ----------------------------------------------------------------


class MLP:
    """An MLP bound to a params pytree."""

    def __init__(self, params=None):
        self.params = params

    def bind(self, params):
        self.params = params
        return self

    @functools.cached_property
    def order(self):
        return sorted(self.params, key=lambda name: int(name[len("layer"):]))

    @property
    def depth(self):
        return len(self.order)

    def layer(self, name, h, last):
        z = h @ self.params[name]["w"] + self.params[name]["b"]
        return z if last else jax.nn.relu(z)

    def __call__(self, x):
        for i, name in enumerate(self.order):
            x = self.layer(name, x, last=(i == self.depth - 1))
        return x


_MODEL = MLP()


def mlp_forward(params, x):
    return _MODEL.bind(params)(x)
