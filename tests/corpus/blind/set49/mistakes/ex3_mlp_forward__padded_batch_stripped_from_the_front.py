# BLIND-SET: 49
# EXERCISE: ex3
# WHAT: mlp_forward zero-pads the batch at the end up to a multiple of 8 (for 8 data-parallel cores) but strips the padding from the front with out[pad:], so for any B not divisible by 8 the result has the right shape (B, dN) but is shifted by pad rows: its first B - pad rows are examples pad..B-1 and its last pad rows are the outputs of the zero padding rows. B divisible by 8 is right.
# SHOULD-SAY: The padding is appended at the end of the batch but removed from the front: return out[:batch] (the first B rows), not out[pad:]. As it is, row i holds example i + pad and the last rows are the outputs for the zero rows.
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
    # pad the batch to a multiple of the 8 data-parallel cores so it splits evenly
    batch = x.shape[0]
    pad = (-batch) % 8
    x = jnp.pad(x, ((0, pad), (0, 0)))
    x = jax.device_put(x, NamedSharding(MESH, P("data")))
    names = _layer_order(params)
    for name in names[:-1]:
        x = jax.nn.relu(_row_parallel_dense(x, params[name]["w"], params[name]["b"]))
    last = params[names[-1]]
    out = _row_parallel_dense(x, last["w"], last["b"])
    return out[pad:]  # drop the padding rows
