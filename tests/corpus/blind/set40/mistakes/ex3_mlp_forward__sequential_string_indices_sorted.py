# BLIND-SET: 40
# EXERCISE: ex3
# WHAT: A torch-style Sequential registers its modules under string indices "0", "1", "2", ... (Linear at even, ReLU at odd positions, in correct numeric layer order), but its forward runs them in `sorted(self._modules)`, i.e. string order. Up to 10 modules (depth <= 5) this is the right order; from depth 6 on "10" sorts before "2", so modules run out of order: wrong outputs when all widths are equal, and a shape error when they differ.
# SHOULD-SAY: Deeper models (six layers or more) are evaluated in the wrong order: the Sequential's module keys are strings and sorting them puts "10" before "2". Iterate the modules in insertion order (a list), or sort the keys by int(key).
"""Exercise 3: a generic MLP that reads its depth from the params pytree (torch-style)."""

import jax
import jax.numpy as jnp


class Module:
    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)


class Linear(Module):
    def __init__(self, w, b):
        self.weight = w.T  # (out_features, in_features)
        self.bias = b

    def forward(self, x):
        return x @ self.weight.T + self.bias


class ReLU(Module):
    def forward(self, x):
        return jax.nn.relu(x)


class Sequential(Module):
    """nn.Sequential: children are registered as "0", "1", "2", ..."""

    def __init__(self, *modules):
        self._modules = {}
        for idx, module in enumerate(modules):
            self.add_module(str(idx), module)

    def add_module(self, name, module):
        self._modules[name] = module

    def forward(self, x):
        for name in sorted(self._modules):  # run them in index order
            x = self._modules[name](x)
        return x


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    names = sorted(params, key=lambda n: int(n[len("layer"):]))
    modules = []
    for name in names:
        modules += [Linear(params[name]["w"], params[name]["b"]), ReLU()]
    model = Sequential(*modules[:-1])  # no ReLU after the output layer
    return model(x)
