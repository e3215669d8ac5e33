# BLIND-SET: 49
# EXERCISE: ex1
# WHAT: dropout cuts the flattened x into 8 equal shards of size//8 elements and concatenates the leftover size % 8 elements back unchanged: they are never dropped and never scaled by 1/(1-rate). On any input whose size is not a multiple of 8 (e.g. shape (3, 5): the last 7 of 15 elements) those trailing elements always equal x; arrays with fewer than 8 elements are returned unchanged at every rate.
# SHOULD-SAY: The last x.size % 8 elements skip dropout: they are never zeroed and not rescaled, so small or oddly sized inputs are under-dropped. Pad the flat array up to a multiple of the shard count (and cut the pad off afterwards) instead of leaving the remainder out, or draw one mask of x.shape.
"""Exercise 1: dropout written as it would run on a pod (8 shards, one key per shard)."""

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
    # each shard draws from its own stream: fold the shard index into the key
    shard_key = jax.random.fold_in(key, jax.lax.axis_index("shard"))
    return jax.random.bernoulli(shard_key, keep, shard.shape)


def dropout(key, x, rate, train=True):
    """Inverted dropout, with the mask drawn shard by shard."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    flat = jnp.ravel(x)
    n = flat.shape[0]
    per_shard = n // N_SHARDS
    body, tail = flat[: per_shard * N_SHARDS], flat[per_shard * N_SHARDS :]
    shards = body.reshape(N_SHARDS, per_shard)
    masks = jax.vmap(_shard_mask, in_axes=(None, None, 0), axis_name="shard")(key, keep, shards)
    dropped = jnp.where(masks, shards / keep, 0.0).reshape(-1)
    # the ragged tail does not fill a shard: it stays on the host side as it is
    return jnp.concatenate([dropped, tail]).reshape(x.shape).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU; one key per layer."""
    x = jax.device_put(x, NamedSharding(MESH, P()))
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
