# BLIND-SET: 40
# EXERCISE: ex1
# WHAT: Correct. A torch-style port: F_dropout(input, p, training, key) draws the keep mask with jax.random.bernoulli(key, 1 - p, shape) and returns input * mask / (1 - p); forward_with_dropout builds an nn.Module-like MLP whose Linear layers hold torch-layout (out, in) weights (w.T) applied as x @ W.T, with train()/eval() recursing into the children and the two dropout keys from one jax.random.split(key).
# SHOULD-SAY: Nothing to fix: the masks, the 1/(1-rate) scaling, the eval path (x itself) and the key handling all meet the contract.
"""Exercise 1: dropout with split PRNG keys (written the way I'd write it in PyTorch)."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


# --- a tiny torch.nn.functional ----------------------------------------------


def F_linear(input, weight, bias=None):
    """torch.nn.functional.linear: weight is (out_features, in_features)."""
    out = input @ weight.T
    if bias is not None:
        out = out + bias
    return out


def F_relu(input):
    return jnp.maximum(input, 0.0)


def F_dropout(input, p=0.5, training=True, key=None):
    """torch.nn.functional.dropout, except the RNG is an explicit key."""
    if p < 0.0 or p >= 1.0:
        raise ValueError(f"dropout probability has to be in [0, 1), but got {p}")
    if not training or p == 0.0:
        return input
    mask = jax.random.bernoulli(key, 1.0 - p, input.shape)  # like torch.empty_like(x).bernoulli_(1 - p)
    return (input * mask.astype(input.dtype)) / (1.0 - p)


# --- a tiny torch.nn ------------------------------------------------------------


class Module:
    def __init__(self):
        self.training = True

    def children(self):
        return [v for v in vars(self).values() if isinstance(v, Module)]

    def train(self, mode=True):
        self.training = mode
        for child in self.children():
            child.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)


class Linear(Module):
    def __init__(self, w, b):
        super().__init__()
        self.weight = w.T  # torch layout (out, in)
        self.bias = b

    def forward(self, x):
        return F_linear(x, self.weight, self.bias)


class Dropout(Module):
    def __init__(self, p=0.5):
        super().__init__()
        self.p = p

    def forward(self, x, key=None):
        return F_dropout(x, self.p, self.training, key)


class Net(Module):
    def __init__(self, params, p=0.5):
        super().__init__()
        self.fc1 = Linear(params["layer1"]["w"], params["layer1"]["b"])
        self.fc2 = Linear(params["layer2"]["w"], params["layer2"]["b"])
        self.fc3 = Linear(params["layer3"]["w"], params["layer3"]["b"])
        self.dropout1 = Dropout(p)
        self.dropout2 = Dropout(p)

    def forward(self, x, key):
        key1, key2 = jax.random.split(key)  # one key per dropout layer
        x = self.dropout1(F_relu(self.fc1(x)), key=key1)
        x = self.dropout2(F_relu(self.fc2(x)), key=key2)
        return self.fc3(x)


# --- the exercise -----------------------------------------------------------------


def dropout(key, x, rate, train=True):
    """Inverted dropout (torch's F.dropout with p=rate, training=train)."""
    return F_dropout(x, p=rate, training=train, key=key)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    model = Net(params, p=rate)
    model.train(train)
    return model(x, key)
