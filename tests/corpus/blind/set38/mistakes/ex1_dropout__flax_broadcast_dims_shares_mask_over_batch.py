# BLIND-SET: 38
# EXERCISE: ex1
# WHAT: dropout() has a Flax-style broadcast_dims=(0,) default, so the mask is drawn with shape (1, ...) and shared by every row: on a (B, F) input each column is zeroed in all rows or kept in all rows (zero fraction, 1/(1-rate) scale, train=False and rate=0 are still right). forward_with_dropout inherits the shared mask in both hidden layers, so its train-mode output differs from the reference for the same key.
# SHOULD-SAY: Your mask is not independent per element: every example in the batch gets the same mask because the batch axis is broadcast (broadcast_dims=(0,), as in a Flax nn.Dropout copied from transformer code). Draw the mask with the full x.shape (no broadcast dims) so each element gets its own coin flip.
"""Exercise 1: dropout with split PRNG keys (written the way I'd do it in Flax)."""

import jax
import jax.numpy as jnp
from jax import lax


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def _dense(layer, h):
    # Flax calls these kernel/bias; the lesson calls them w/b.
    kernel = layer["kernel"] if "kernel" in layer else layer["w"]
    bias = layer["bias"] if "bias" in layer else layer["b"]
    return h @ kernel + bias


def dropout(key, x, rate, train=True, broadcast_dims=(0,)):
    """Inverted dropout, modelled on flax.linen.Dropout.

    ``deterministic`` in Flax is ``not train`` here. ``broadcast_dims`` are the
    axes along which the mask is shared (saves random bits, like in the
    transformer code I learnt from).
    """
    deterministic = not train
    if deterministic or rate == 0.0:
        return x
    keep_prob = 1.0 - rate
    broadcast_shape = list(x.shape)
    for dim in broadcast_dims:
        if dim < x.ndim:
            broadcast_shape[dim] = 1
    mask = jax.random.bernoulli(key, p=keep_prob, shape=tuple(broadcast_shape))
    mask = jnp.broadcast_to(mask, x.shape)
    return lax.select(mask, x / keep_prob, jnp.zeros_like(x))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    rngs = dict(zip(("dropout_0", "dropout_1"), jax.random.split(key)))
    h = jax.nn.relu(_dense(params["layer1"], x))
    h = dropout(rngs["dropout_0"], h, rate, train=train)
    h = jax.nn.relu(_dense(params["layer2"], h))
    h = dropout(rngs["dropout_1"], h, rate, train=train)
    return _dense(params["layer3"], h)
