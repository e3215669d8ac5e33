# BLIND-SET: 58
# EXERCISE: ex1
# WHAT: The any-depth loop in forward_with_dropout does key, subkey = jax.random.split(key) and then passes key (the carry), not subkey, to dropout; subkey is never used. Layer 1 is dropped with split(key)[0], and that same key is split again to make layer 2's key, so one key is used twice (for layer 1's bernoulli and as the parent of layer 2's key). A key log shows split(key), bernoulli(K1), split(K1), bernoulli(split(K1)[0]), against the reference's split(key), bernoulli(K1), bernoulli(K2). Layer 1's mask equals the reference's; layer 2's mask does not. The logits differ from the reference's by max |diff| 3.0 to 4.9 at rate 0.2, 9.4 to 10.4 at 0.5 and 37.8 to 38.2 at 0.8 (B = 16/128, zero and 0.1*N(0,1) biases). dropout() is exact, train=False and rate=0 equal the plain forward pass, and jit agrees with eager.
# SHOULD-SAY: forward_with_dropout reuses a key: in your loop you split key into (key, subkey) but drop out with key and keep splitting it, so the key that drew layer 1's mask also generates layer 2's key (subkey is never used). Use the fresh subkey for dropout and carry the other half (or split once: k1, k2 = jax.random.split(key)).
"""Exercise 1: dropout with split PRNG keys, written to work on more than the lesson needs.

``dropout`` accepts any array or pytree of arrays, any float dtype and an optional
``noise_shape``; ``forward_with_dropout`` runs an MLP
of any depth (dict of ``layerN`` entries or a list/tuple of layers), with one
rate for every hidden layer or a sequence of per-layer rates.
"""

import re
from collections.abc import Mapping, Sequence

import jax
import jax.numpy as jnp

# --- Given: the lesson's plain forward pass (use it as a model) -------------


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last.

    ``params`` is ``{"layer1": {"w": (784, 256), "b": (256,)},
    "layer2": {"w": (256, 128), "b": (128,)}, "layer3": {"w": (128, 10),
    "b": (10,)}}``; ``x`` is float32 ``(B, 784)``; returns logits ``(B, 10)``.
    """
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


# --- Your code ----------------------------------------------------------------


def _dropout_array(key, x, rate, noise_shape=None):
    keep = 1.0 - rate
    shape = x.shape if noise_shape is None else tuple(noise_shape)
    mask = jax.random.bernoulli(key, keep, shape)
    mask = jnp.broadcast_to(mask, x.shape)
    keep = jnp.asarray(keep, dtype=jnp.result_type(x.dtype, jnp.float32))
    out = jnp.where(mask, x / keep, jnp.zeros((), x.dtype))
    return out.astype(x.dtype)


def dropout(key, x, rate, train=True, *, noise_shape=None, **unused):
    """Inverted dropout on an array or on every leaf of a pytree of arrays.

    Each element is zeroed with probability ``rate``; survivors are scaled by
    ``1 / (1 - rate)``. ``train=False`` or ``rate == 0`` returns ``x`` itself.
    A single array uses ``key`` directly; a pytree with several leaves gets one
    subkey per leaf. ``noise_shape`` (default: the full shape) lets a caller
    share a mask along broadcast axes; leave it alone for ordinary dropout.
    """
    if not train or rate == 0:
        return x
    if not 0.0 <= float(rate) < 1.0:
        raise ValueError(f"dropout rate must be in [0, 1), got {rate!r}")
    leaves, treedef = jax.tree.flatten(x)
    if len(leaves) == 1 and treedef == jax.tree.structure(0):
        return _dropout_array(key, leaves[0], rate, noise_shape)
    keys = jax.random.split(key, len(leaves))
    out = [_dropout_array(k, leaf, rate, noise_shape) for k, leaf in zip(keys, leaves)]
    return jax.tree.unflatten(treedef, out)


def _layer_number(name):
    digits = re.findall(r"\d+", str(name))
    if not digits:
        raise ValueError(f"cannot read a layer number from {name!r}")
    return int(digits[-1])


def _layers(params):
    """The layers in order: a list/tuple as given, a dict by the number in each name."""
    if isinstance(params, Mapping):
        return [params[name] for name in sorted(params, key=_layer_number)]
    return list(params)


def forward_with_dropout(params, x, key, rate=0.5, train=True, *, activation=jax.nn.relu, **dropout_kwargs):
    """The lesson's MLP (any depth) with dropout after each hidden activation.

    ``rate`` is one rate for every hidden layer or a sequence with one rate per
    hidden layer. A fresh key is split off for every hidden layer as the loop
    goes, so the network can be any depth.
    """
    layers = _layers(params)
    n_hidden = len(layers) - 1
    if isinstance(rate, Sequence):
        rates = tuple(rate)
        if len(rates) != n_hidden:
            raise ValueError(f"expected {n_hidden} rates, got {len(rates)}")
    else:
        rates = (rate,) * n_hidden
    h = x
    for layer, layer_rate in zip(layers[:-1], rates):
        h = activation(h @ layer["w"] + layer["b"])
        key, subkey = jax.random.split(key)
        h = dropout(key, h, layer_rate, train, **dropout_kwargs)
    last = layers[-1]
    return h @ last["w"] + last["b"]
