"""forward_with_dropout "normalises the layout" of each weight with w.T.reshape(w.shape) before using it: a
transpose, then a reshape back to (in, out), which keeps the shape and scrambles which element is where. The
logits are wrong in both modes; the message measures the rearrangement on the evaluation pass.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.eval_forward", "mistake": "ex1.weights_reshaped", "hint": "memory order", "max_failing": 1,
          "also": ["ex1.params_unchanged"]}


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def _dense(layer, h):
    w = layer["w"].T.reshape(layer["w"].shape)  # (in, out) either way
    return h @ w + layer["b"]


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(_dense(params["layer1"], x))
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(_dense(params["layer2"], h))
    h = dropout(key2, h, rate, train)
    return _dense(params["layer3"], h)
