# BLIND-SET: 49
# EXERCISE: ex1
# WHAT: dropout splits the flattened x into 8 emulated shards and draws every shard's mask from the same, unfolded key (the key is broadcast with in_axes=None and never combined with axis_index), so the 8 chunks of x get identical keep/drop patterns: element j and element j + ceil(size/8) are always dropped together, instead of independently. Rate and scale are right; for one (B, F) input with B divisible by 8, rows i and i + B/8 share a mask.
# SHOULD-SAY: The mask is not independent per element: it repeats with period ceil(x.size/8) because every shard uses the same key. Give each shard its own key, e.g. jax.random.fold_in(key, jax.lax.axis_index("shard")) (or split the key into one per shard), or draw a single mask of x.shape from the key.
"""Exercise 1: dropout written as it would run on a pod (8 shards)."""

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

N_SHARDS = 8  # a v3-8 slice; on one CPU the shards are emulated with vmap(axis_name=...)
MESH = Mesh(np.array(jax.devices()), ("data",))


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def _shard_mask(key, keep, shard):
    # the key is replicated to every shard (in_axes=None), like params under pmap
    return jax.random.bernoulli(key, keep, shard.shape)


def dropout(key, x, rate, train=True):
    """Inverted dropout, with the mask drawn shard by shard."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    flat = jnp.ravel(x)
    n = flat.shape[0]
    per_shard = -(-n // N_SHARDS)
    padded = jnp.pad(flat, (0, per_shard * N_SHARDS - n))
    shards = padded.reshape(N_SHARDS, per_shard)
    masks = jax.vmap(_shard_mask, in_axes=(None, None, 0), axis_name="shard")(key, keep, shards)
    mask = masks.reshape(-1)[:n].reshape(x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU; one key per layer."""
    x = jax.device_put(x, NamedSharding(MESH, P()))
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
