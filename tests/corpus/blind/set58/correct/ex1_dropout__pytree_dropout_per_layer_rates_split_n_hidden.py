# BLIND-SET: 58
# EXERCISE: ex1
# WHAT: correct: dropout returns x itself when train is false or rate is 0. Otherwise it draws bernoulli(key, 1 - rate, x.shape) (the key used directly for a single array; one subkey per leaf for a pytree with several leaves) and returns where(mask, x / keep, 0) in x's dtype. An optional noise_shape defaults to the full shape. forward_with_dropout handles any depth (dict sorted by layer number, or a list/tuple) and scalar or per-layer rates, and splits the key once with jax.random.split(key, n_hidden). For the lesson's net that is split(key, 2), the reference's keys. dropout at rates 0.1/0.5/0.8 on (300, 200), (2, 3, 4) and (50,) inputs, and forward_with_dropout at rates 0.2/0.5/0.8, B = 16/128, zero and non-zero biases, are bit-identical to the reference. The key log is identical, eval equals the plain forward pass, and jit agrees.
# SHOULD-SAY: full marks
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
    hidden layer. The key is split once into one key per hidden layer.
    """
    layers = _layers(params)
    n_hidden = len(layers) - 1
    if isinstance(rate, Sequence):
        rates = tuple(rate)
        if len(rates) != n_hidden:
            raise ValueError(f"expected {n_hidden} rates, got {len(rates)}")
    else:
        rates = (rate,) * n_hidden
    keys = jax.random.split(key, n_hidden) if n_hidden else []
    h = x
    for layer, layer_key, layer_rate in zip(layers[:-1], keys, rates):
        h = activation(h @ layer["w"] + layer["b"])
        h = dropout(layer_key, h, layer_rate, train, **dropout_kwargs)
    last = layers[-1]
    return h @ last["w"] + last["b"]
