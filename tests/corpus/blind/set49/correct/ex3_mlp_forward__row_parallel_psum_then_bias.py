# BLIND-SET: 49
# EXERCISE: ex3
# WHAT: mlp_forward orders layers numerically, places x on a one-device Mesh over jax.devices() with NamedSharding(P("data")), and runs every layer Megatron-style: the weight's input rows are split over gcd(d_in, 2) emulated model shards (vmap with axis_name="model"), partial products are psummed, the bias is added once after the psum, and ReLU follows every layer but the last. Equal to the reference to float32 tolerance at any depth and width.
# SHOULD-SAY: Nothing to fix: numeric layer order, ReLU on hidden layers only, and the row-parallel partial products are summed with psum before the bias is added once.
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
    xs = jnp.moveaxis(x.reshape(x.shape[0], n, d_in // n), 1, 0)  # (n, B, d_in/n)
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
