# BLIND-SET: 40
# EXERCISE: ex1
# WHAT: A hand-rolled nn.Module whose train(mode)/eval() only set self.training on the module it is called on, without recursing into children as torch's Module.train does. forward_with_dropout calls model.train(train) on the parent, so the two Dropout children stay in their default training mode: with train=False the MLP still applies dropout (random zeros, survivors scaled by 1/(1-rate)) instead of equalling the plain forward pass. dropout() itself and the train=True path are correct.
# SHOULD-SAY: forward_with_dropout(train=False) still drops units: model.eval()/train(False) only flips the flag on the top-level module, and the Dropout submodules keep training=True. Propagate the mode to the children (as torch's Module.train does) or pass train straight to each dropout call.
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
    def __init__(self):
        self.training = True  # nn.Module starts in training mode

    def train(self, mode=True):
        self.training = mode
        return self

    def eval(self):
        return self.train(False)

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)


class Linear(Module):
    def __init__(self, w, b):
        super().__init__()
        self.weight = w.T  # (out_features, in_features)
        self.bias = b

    def forward(self, x):
        return x @ self.weight.T + self.bias


class Dropout(Module):
    def __init__(self, p=0.5):
        super().__init__()
        self.p = p

    def forward(self, x, key):
        return dropout(key, x, self.p, train=self.training)


class Net(Module):
    def __init__(self, params, p=0.5):
        super().__init__()
        self.fc1 = Linear(params["layer1"]["w"], params["layer1"]["b"])
        self.fc2 = Linear(params["layer2"]["w"], params["layer2"]["b"])
        self.fc3 = Linear(params["layer3"]["w"], params["layer3"]["b"])
        self.dropout1 = Dropout(p)
        self.dropout2 = Dropout(p)

    def forward(self, x, key):
        k1, k2 = jax.random.split(key)
        x = self.dropout1(jax.nn.relu(self.fc1(x)), k1)
        x = self.dropout2(jax.nn.relu(self.fc2(x)), k2)
        return self.fc3(x)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    model = Net(params, p=rate)
    if train:
        model.train()
    else:
        model.eval()
    return model(x, key)
