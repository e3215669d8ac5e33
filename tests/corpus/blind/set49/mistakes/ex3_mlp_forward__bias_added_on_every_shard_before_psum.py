# BLIND-SET: 49
# EXERCISE: ex3
# WHAT: mlp_forward runs each layer row-parallel over gcd(d_in, 2) emulated model shards but adds the bias inside each shard before the psum, so every layer whose input width is even adds its bias twice (x @ w + 2b); layers with an odd input width are right. With the grader-style nonzero biases the output is off at every depth.
# SHOULD-SAY: The bias is added once per shard and then summed by psum, so it is counted gcd(d_in, 2) times. In a row-parallel layer, psum the partial products first and add the bias once afterwards (or add it on one shard only).
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
        partial = x_part @ w_part + b
        return jax.lax.psum(partial, "model")

    return jax.vmap(shard, axis_name="model")(xs, ws)[0]


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    x = jax.device_put(x, NamedSharding(MESH, P("data")))
    names = _layer_order(params)
    for name in names[:-1]:
        x = jax.nn.relu(_row_parallel_dense(x, params[name]["w"], params[name]["b"]))
    last = params[names[-1]]
    return _row_parallel_dense(x, last["w"], last["b"])
