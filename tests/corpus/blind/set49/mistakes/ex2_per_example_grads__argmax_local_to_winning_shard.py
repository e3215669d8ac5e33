# BLIND-SET: 49
# EXERCISE: ex2
# WHAT: largest_gradient_example splits the norms into gcd(B, 8) contiguous data shards, picks the winning shard through all_gather, but returns the winner's local index within its shard without adding the shard offset (winner * B/n). Whenever B is even and the largest norm is not in the first shard, the index is too small by a multiple of B/n. Gradients and norms are right.
# SHOULD-SAY: The index is local to the winning shard: add the shard offset (shard_index * examples_per_shard) before returning it, or take jnp.argmax over the whole (B,) norms array. The largest-norm example is at a different index than the one returned.
"""Exercise 2: per-example gradients, written for data- and model-parallel shards."""

import jax
import jax.numpy as jnp
import numpy as np

N_SHARDS = 8  # cores of the pod slice this was written for; emulated with vmap(axis_name=...)


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def _example_loss(params, xi, yi):
    return loss_fn(params, xi[None], yi[None])


def _shard_grads(params, xs, ys):
    # what one data-parallel core computes: the gradients of its own examples
    return jax.vmap(jax.grad(_example_loss), in_axes=(None, 0, 0))(params, xs, ys)


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, with a leading batch axis."""
    batch = x.shape[0]
    n = int(np.gcd(batch, N_SHARDS))
    xs = x.reshape(n, batch // n, *x.shape[1:])
    ys = y.reshape(n, batch // n)
    sharded = jax.vmap(_shard_grads, in_axes=(None, 0, 0), axis_name="data")(params, xs, ys)
    # (n, B/n, ...) -> (B, ...), shard-major, the order the batch was split in
    return jax.tree.map(lambda g: g.reshape(batch, *g.shape[2:]), sharded)


def _local_sumsq(chunk):
    # one model-parallel core holds a slice of the flat gradient; the global
    # squared norm is the sum of the cores' partial sums
    return jax.lax.psum(jnp.sum(chunk * chunk), "model")


def _example_norm(flat):
    size = flat.shape[0]
    per = -(-size // N_SHARDS)
    chunks = jnp.pad(flat, (0, per * N_SHARDS - size)).reshape(N_SHARDS, per)
    total = jax.vmap(_local_sumsq, axis_name="model")(chunks)
    return jnp.sqrt(total[0])


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    leaves = jax.tree.leaves(grads)
    batch = leaves[0].shape[0]
    flat = jnp.concatenate([leaf.reshape(batch, -1) for leaf in leaves], axis=1)
    return jax.vmap(_example_norm)(flat)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    batch = norms.shape[0]
    n = int(np.gcd(batch, N_SHARDS))
    # each data shard finds its local best; all-gather the shards' best norms and
    # take the index from the shard that wins
    local = norms.reshape(n, batch // n)

    def shard_best(local_norms):
        best = jnp.argmax(local_norms)
        maxima = jax.lax.all_gather(local_norms[best], "data")
        winner = jnp.argmax(maxima)
        return jax.lax.all_gather(best, "data")[winner]

    return int(jax.vmap(shard_best, axis_name="data")(local)[0])
