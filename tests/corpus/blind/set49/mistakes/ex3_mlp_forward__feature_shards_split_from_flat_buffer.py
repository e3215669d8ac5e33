# BLIND-SET: 49
# EXERCISE: ex3
# WHAT: mlp_forward splits each layer's input features over gcd(d_in, 2) emulated model shards with x.reshape(n, B, d_in/n) straight from the flat buffer instead of reshape(B, n, d_in/n) then moving the shard axis first, so shard 0 gets the first half of the rows (all features) and shard 1 the second half: rows get mixed across examples. Whenever d_in is even and B > 1 the output is wrong; for B = 1 it is right.
# SHOULD-SAY: The activations are cut into feature shards along the wrong axis: reshape(n, B, d_in//n) slices the batch, not the features. Reshape to (B, n, d_in//n) and move the shard axis to the front (or split with jnp.split(x, n, axis=1)) so each shard holds all examples and its own feature columns, matching the row-split of the weight.
"""Exercise 3: a generic MLP, written as a row-parallel (tensor-parallel) forward pass."""

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

MODEL_SHARDS = 2  # tensor-parallel degree of the slice this was written for
MESH = Mesh(np.array(jax.devices()), ("data",))


def _layer_order(params):
    return sorted(params, key=lambda name: int(name.removeprefix("layer")))


def _row_parallel_dense(x, w, b):
    d_in = w.shape[0]
    n = int(np.gcd(d_in, MODEL_SHARDS))
    xs = x.reshape(n, x.shape[0], d_in // n)                      # (n, B, d_in/n)
    ws = w.reshape(n, d_in // n, w.shape[1])                      # (n, d_in/n, d_out)

    def shard(x_part, w_part):
        partial = x_part @ w_part
        return jax.lax.psum(partial, "model") + b

    return jax.vmap(shard, axis_name="model")(xs, ws)[0]


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    x = jax.device_put(x, NamedSharding(MESH, P("data")))
    names = _layer_order(params)
    for name in names[:-1]:
        x = jax.nn.relu(_row_parallel_dense(x, params[name]["w"], params[name]["b"]))
    last = params[names[-1]]
    return _row_parallel_dense(x, last["w"], last["b"])
