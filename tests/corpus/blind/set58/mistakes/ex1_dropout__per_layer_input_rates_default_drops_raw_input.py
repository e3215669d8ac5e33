# BLIND-SET: 58
# EXERCISE: ex1
# WHAT: forward_with_dropout puts dropout in front of every dense layer (Keras style), with layer_rates defaulting to (rate,) * n_layers. The raw input x is therefore dropped too: three dropout sites instead of two, with a (B, 784) mask that zeroes 0.200/0.498/0.799 of the input elements at rates 0.2/0.5/0.8. The two hidden sites sit after the ReLUs as required, with keys split(key, 3)[1:] (distinct, none reused). The logits differ from the reference's by max |diff| 4.6 to 5.3 at rate 0.2, 14.9 to 15.8 at 0.5 and 46 to 73 at 0.8 (B = 16/128, zero and 0.1*N(0,1) biases). train=False and rate=0 equal the plain forward pass exactly, dropout() is exact, and jit agrees with eager.
# SHOULD-SAY: Dropout must come only after the two hidden ReLUs, but your default layer_rates also drops the network input x before layer1 (a third dropout site). Apply dropout to the hidden activations only (or default the input rate to 0).
"""Exercise 1: dropout with split PRNG keys, written to work on more than the lesson needs.

``dropout`` accepts any array or pytree of arrays, any float dtype and an optional
``noise_shape``; ``forward_with_dropout`` runs an MLP
of any depth (dict of ``layerN`` entries or a list/tuple of layers), with one
rate for every layer input or a sequence of per-layer rates.
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


def forward_with_dropout(params, x, key, rate=0.5, train=True, *, layer_rates=None,
                         activation=jax.nn.relu, **dropout_kwargs):
    """The lesson's MLP (any depth) with dropout on the inputs of its layers.

    Dropout sits where Keras puts a ``Dropout`` layer, in front of each dense
    layer, so the dense layer after a hidden ReLU sees the dropped activations.
    ``layer_rates`` gives one rate per layer input (default: ``rate`` for every
    layer); pass 0 for an input that should not be dropped. The key is split
    once into one key per layer.
    """
    layers = _layers(params)
    if layer_rates is None:
        layer_rates = (rate,) * len(layers)
    if len(layer_rates) != len(layers):
        raise ValueError(f"expected {len(layers)} rates, got {len(layer_rates)}")
    keys = jax.random.split(key, len(layers))
    h = x
    for i, (layer, layer_key, layer_rate) in enumerate(zip(layers, keys, layer_rates)):
        h = dropout(layer_key, h, layer_rate, train, **dropout_kwargs)
        h = h @ layer["w"] + layer["b"]
        if i < len(layers) - 1:
            h = activation(h)
    return h
