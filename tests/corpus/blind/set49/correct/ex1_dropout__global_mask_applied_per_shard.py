# BLIND-SET: 49
# EXERCISE: ex1
# WHAT: dropout draws one global mask bernoulli(key, 1-rate, x.shape) (bit-identical to the reference's), then lays x and the mask out flat over 8 emulated pod shards (padded to a multiple of 8), applies where(mask, x/keep, 0) per shard under vmap(axis_name="shard"), and reassembles shard-major before cutting the pad; the MLP splits the key into one key per layer exactly as the reference, and places x with device_put on a one-device mesh. train=False / rate=0 return x itself.
# SHOULD-SAY: Nothing to fix: every element gets its own coin flip from the given key, survivors are scaled by 1/(1-rate), the two dropout layers use different keys, and train=False equals forward.
"""Exercise 1: dropout written as it would run on a pod (8 shards, one global mask)."""

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


def _apply_shard(mask_shard, x_shard, keep):
    # what one core does with its slice of the activations and of the global mask
    return jnp.where(mask_shard, x_shard / keep, 0.0)


def dropout(key, x, rate, train=True):
    """Inverted dropout, with the mask drawn shard by shard."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    # one global mask from the given key (like a jitted RNG over a sharded array:
    # the values do not depend on how the array is later laid out on devices)
    mask = jax.random.bernoulli(key, keep, x.shape)
    n = x.size
    per_shard = -(-n // N_SHARDS)
    pad = per_shard * N_SHARDS - n
    x_shards = jnp.pad(jnp.ravel(x), (0, pad)).reshape(N_SHARDS, per_shard)
    m_shards = jnp.pad(jnp.ravel(mask), (0, pad)).reshape(N_SHARDS, per_shard)
    out = jax.vmap(_apply_shard, in_axes=(0, 0, None), axis_name="shard")(m_shards, x_shards, keep)
    return out.reshape(-1)[:n].reshape(x.shape).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU; one key per layer."""
    x = jax.device_put(x, NamedSharding(MESH, P()))
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
