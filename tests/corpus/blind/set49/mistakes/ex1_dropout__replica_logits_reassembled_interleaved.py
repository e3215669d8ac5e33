# BLIND-SET: 49
# EXERCISE: ex1
# WHAT: forward_with_dropout draws the two layer masks from split(key) exactly as the reference, but runs the MLP as gcd(B, 8) vmapped data-parallel replicas over contiguous batch shards and reassembles the (shards, B/shards, 10) logits with swapaxes(0, 1).reshape, i.e. interleaved instead of shard-major: whenever B is even, output row i holds another example's logits (train=False too: the result is forward(params, x) with its rows permuted). B odd is unaffected; dropout() itself is right.
# SHOULD-SAY: The replicas' outputs are put back together in the wrong order: after splitting x into contiguous shards with reshape(n, B//n, ...), reassemble with out.reshape(B, -1) (shard-major), not swapaxes(0, 1) first. As it is, row i of the logits is not example i, so train=False does not equal forward and the training logits are permuted.
"""Exercise 1: dropout written as it would run on a pod (8 shards, one global mask, data-parallel MLP)."""

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


def _replica_forward(params, xs, m1, m2, keep):
    # one data-parallel replica: its batch shard and its slice of the two global masks
    h = jax.nn.relu(xs @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jnp.where(m1, h / keep, 0.0)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = jnp.where(m2, h / keep, 0.0)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU; data-parallel over shards."""
    x = jax.device_put(x, NamedSharding(MESH, P()))
    key1, key2 = jax.random.split(key)
    batch = x.shape[0]
    width1 = params["layer1"]["w"].shape[1]
    width2 = params["layer2"]["w"].shape[1]
    if train and rate > 0.0:
        keep = 1.0 - rate
        m1 = jax.random.bernoulli(key1, keep, (batch, width1))
        m2 = jax.random.bernoulli(key2, keep, (batch, width2))
    else:
        keep = 1.0
        m1 = jnp.ones((batch, width1), bool)
        m2 = jnp.ones((batch, width2), bool)
    n = int(np.gcd(batch, N_SHARDS))
    split = lambda a: a.reshape(n, batch // n, a.shape[1])
    out = jax.vmap(_replica_forward, in_axes=(None, 0, 0, 0, None), axis_name="data")(
        params, split(x), split(m1), split(m2), keep
    )
    # gather the replicas' logits back into one (batch, 10) array
    return jnp.swapaxes(out, 0, 1).reshape(batch, -1)
