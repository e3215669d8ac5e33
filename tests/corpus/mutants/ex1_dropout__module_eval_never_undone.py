"""A torch-style Dropout object holds a `training` attribute: forward_with_dropout(train=False) calls its eval(),
and nothing calls train() again, so once an evaluation pass has run, dropout drops nothing. The forward pass is
graded with the contract's dropout; asked again after the forward calls, the submission's own dropout returns x."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.key_only_randomness", "mistake": "ex1.state_between_calls", "hint": "mode flag",
          "max_failing": 1}


class _Dropout:
    def __init__(self):
        self.training = True

    def eval(self):
        self.training = False

    def __call__(self, key, x, rate, train=True):
        if not (train and self.training) or rate == 0.0:
            return x
        keep = 1.0 - rate
        return jnp.where(jax.random.bernoulli(key, keep, x.shape), x / keep, 0.0)


_LAYER = _Dropout()


def dropout(key, x, rate, train=True):
    return _LAYER(key, x, rate, train)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    if not train:
        _LAYER.eval()
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
