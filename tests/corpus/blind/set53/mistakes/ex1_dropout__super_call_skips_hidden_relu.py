# BLIND-SET: 53
# EXERCISE: ex1
# WHAT: `DropoutDense(ReLUDense)` calls `super(ReLUDense, self).__call__`, which resolves past ReLUDense to the plain `Dense.__call__`, so the hidden layers of forward_with_dropout have no ReLU (dropout is applied to the pre-activations). Logits differ from the reference in both train and eval mode; train=False no longer equals `forward`. `dropout` itself is correct.
# SHOULD-SAY: forward_with_dropout is missing the hidden ReLUs (train=False does not match forward): `super(ReLUDense, self)` starts the lookup after ReLUDense and skips its ReLU; call `super().__call__(h)` so ReLUDense's ReLU runs before dropout.
"""Exercise 1: dropout with split PRNG keys, written with small classes."""

import jax
import jax.numpy as jnp

# --- Given: the lesson's plain forward pass (use it as a model) -------------


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


# --- Your code ----------------------------------------------------------------


class Dropout:
    """Inverted dropout layer."""

    def __init__(self, rate):
        self.rate = rate

    def __call__(self, key, x, train=True):
        if not train or self.rate == 0:
            return x
        keep = 1.0 - self.rate
        mask = jax.random.bernoulli(key, keep, x.shape)
        return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


class Dense:
    def __init__(self, layer):
        self.w = layer["w"]
        self.b = layer["b"]

    def __call__(self, h):
        return h @ self.w + self.b


class ReLUDense(Dense):
    def __call__(self, h):
        return jax.nn.relu(super().__call__(h))


class DropoutDense(ReLUDense):
    """Dense -> ReLU -> Dropout."""

    def __init__(self, layer, rate):
        super().__init__(layer)
        self.drop = Dropout(rate)

    def __call__(self, h, key, train=True):
        # run the ReLU layer, then drop
        h = super(ReLUDense, self).__call__(h)
        return self.drop(key, h, train)


class MLP:
    def __init__(self, params, rate):
        self.hidden = [DropoutDense(params["layer1"], rate), DropoutDense(params["layer2"], rate)]
        self.out = Dense(params["layer3"])

    def __call__(self, x, key, train=True):
        keys = jax.random.split(key, len(self.hidden))
        for layer, k in zip(self.hidden, keys):
            x = layer(x, k, train)
        return self.out(x)


def dropout(key, x, rate, train=True):
    return Dropout(rate)(key, x, train)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    return MLP(params, rate)(x, key, train)
