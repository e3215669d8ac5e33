# BLIND-SET: 40
# EXERCISE: ex3
# WHAT: Correct. An nn.Module-like MLP: __init__ walks layer1, layer2, ... while the name is present in params (like repeated hasattr(model, f"layer{i}")), wraps each in a Linear holding the torch-layout weight w.T (applied as x @ W.T + b) and keeps them in a ModuleList-style list; forward applies F.relu (clamp(min=0)) after every layer but the last. params is only read.
# SHOULD-SAY: Nothing to fix: the depth and numeric order come from the params, ReLU sits after every layer but the last, and params is left unmodified.
"""Exercise 3: a generic MLP that reads its depth from the params pytree (torch-style)."""

import jax
import jax.numpy as jnp


class Module:
    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)


class Linear(Module):
    def __init__(self, w, b):
        self.in_features, self.out_features = w.shape
        self.weight = w.T  # (out_features, in_features), as in torch
        self.bias = b

    def forward(self, x):
        return x @ self.weight.T + self.bias  # F.linear


def relu(x):
    return jnp.clip(x, min=0.0)  # x.clamp(min=0)


class MLP(Module):
    def __init__(self, params):
        self.layers = []  # nn.ModuleList
        i = 1
        while f"layer{i}" in params:
            layer = params[f"layer{i}"]
            self.layers.append(Linear(layer["w"], layer["b"]))
            i += 1
        if len(self.layers) != len(params):
            raise ValueError(f"expected layer1..layer{len(params)}, got {sorted(params)}")

    def forward(self, x):
        for layer in self.layers[:-1]:
            x = relu(layer(x))
        return self.layers[-1](x)


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    return MLP(params)(x)
