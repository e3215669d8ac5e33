# BLIND-SET: 40
# EXERCISE: ex3
# WHAT: mlp_forward builds the student's usual torch MLP template (Linear -> ReLU -> Dropout(p=0.1) per hidden layer) and calls it without model.eval(); the Module starts in training mode, as nn.Module does, so every hidden activation goes through inverted dropout at rate 0.1, with keys drawn from a torch.manual_seed(0)-style generator reseeded at every call. Outputs are deterministic but wrong for every depth >= 2 (about 10% of the hidden units are zeroed and the rest scaled by 1/0.9); depth 1 has no hidden layer and is right.
# SHOULD-SAY: The outputs are wrong for any model with a hidden layer because the forward pass applies dropout: the module is left in training mode (no model.eval()). mlp_forward must be the plain MLP: drop the Dropout layers, or switch them off (evaluation mode) here.
"""Exercise 3: a generic MLP that reads its depth from the params pytree (torch template)."""

import jax
import jax.numpy as jnp

# --- torch.manual_seed-style global generator -----------------------------------------

_generator = {"key": jax.random.PRNGKey(0)}


def manual_seed(seed):
    _generator["key"] = jax.random.PRNGKey(seed)


def _next_key():
    _generator["key"], sub = jax.random.split(_generator["key"])
    return sub


# --- a tiny torch.nn -----------------------------------------------------------------------


class Module:
    def __init__(self):
        self.training = True

    def modules(self):
        yield self
        for v in vars(self).values():
            if isinstance(v, Module):
                yield from v.modules()
            elif isinstance(v, list):
                for item in v:
                    if isinstance(item, Module):
                        yield from item.modules()

    def train(self, mode=True):
        for m in self.modules():
            m.training = mode
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


class ReLU(Module):
    def forward(self, x):
        return jax.nn.relu(x)


class Dropout(Module):
    def __init__(self, p=0.5):
        super().__init__()
        self.p = p

    def forward(self, x):
        if not self.training or self.p == 0.0:
            return x
        keep = jax.random.bernoulli(_next_key(), 1.0 - self.p, x.shape)
        return jnp.where(keep, x / (1.0 - self.p), 0.0)


class Sequential(Module):
    def __init__(self, *layers):
        super().__init__()
        self.layers = list(layers)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def make_mlp(params, dropout=0.1):
    """My usual MLP template: [Linear, ReLU, Dropout] * (N - 1) + [Linear]."""
    names = sorted(params, key=lambda n: int(n.removeprefix("layer")))
    layers = []
    for name in names[:-1]:
        layers += [Linear(params[name]["w"], params[name]["b"]), ReLU(), Dropout(dropout)]
    layers.append(Linear(params[names[-1]]["w"], params[names[-1]]["b"]))
    return Sequential(*layers)


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    manual_seed(0)  # reproducible runs
    model = make_mlp(params)
    return model(x)
