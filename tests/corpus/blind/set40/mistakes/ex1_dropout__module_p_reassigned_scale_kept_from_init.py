# BLIND-SET: 40
# EXERCISE: ex1
# WHAT: forward_with_dropout builds an nn.Module-like net whose Dropout layers are constructed with torch's default p=0.5 and precompute scale = 1/(1-p) in __init__; the rate is then set the torch way (`for m in model.modules(): if isinstance(m, Dropout): m.p = rate`), which changes the mask probability but not the cached scale. In the MLP, survivors are always multiplied by 2.0, so for any rate other than 0.5 (and > 0) the hidden activations after dropout are scaled by 2 instead of 1/(1-rate); dropout() itself is correct.
# SHOULD-SAY: In forward_with_dropout the survivors of both dropout layers are scaled by 2 regardless of rate: the Dropout module caches 1/(1-p) at construction with p=0.5 and reassigning m.p later does not update it. Compute the scale from the current rate at call time (or construct the Dropout layers with p=rate).
"""Exercise 1: dropout with split PRNG keys (torch-style modules)."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Inverted dropout, like torch.nn.functional.dropout(x, p=rate, training=train)."""
    if not train or rate == 0.0:
        return x
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), 0.0).astype(x.dtype)


class Module:
    training = True

    def modules(self):
        yield self
        for v in vars(self).values():
            if isinstance(v, Module):
                yield from v.modules()

    def train(self, mode=True):
        for m in self.modules():
            m.training = mode
        return self

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)


class Dropout(Module):
    def __init__(self, p=0.5):
        self.p = p
        self.scale = 1.0 / (1.0 - p)  # precomputed once, like a registered buffer

    def forward(self, x, key):
        if not self.training or self.p == 0.0:
            return x
        keep = jax.random.bernoulli(key, 1.0 - self.p, x.shape)
        return jnp.where(keep, x * self.scale, 0.0).astype(x.dtype)


class Linear(Module):
    def __init__(self, w, b):
        self.weight = w.T  # (out_features, in_features)
        self.bias = b

    def forward(self, x):
        return x @ self.weight.T + self.bias


class MLP(Module):
    def __init__(self, params):
        self.fc1 = Linear(params["layer1"]["w"], params["layer1"]["b"])
        self.drop1 = Dropout()
        self.fc2 = Linear(params["layer2"]["w"], params["layer2"]["b"])
        self.drop2 = Dropout()
        self.fc3 = Linear(params["layer3"]["w"], params["layer3"]["b"])

    def forward(self, x, key):
        k1, k2 = jax.random.split(key)
        x = self.drop1(jax.nn.relu(self.fc1(x)), k1)
        x = self.drop2(jax.nn.relu(self.fc2(x)), k2)
        return self.fc3(x)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    model = MLP(params)
    for m in model.modules():  # the usual torch way to change the dropout rate
        if isinstance(m, Dropout):
            m.p = rate
    model.train(train)
    return model(x, key)
