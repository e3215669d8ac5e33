# BLIND-SET: 49
# EXERCISE: ex5
# WHAT: make_train_step pmeans the loss across the gcd(B, 8) data shards but not the gradients, then unreplicates by taking replica 0, so the update uses the gradient of the first B/n examples only. Whenever B is even the new params and optimizer state differ from the full-batch step; the returned loss is right, and B odd (one shard) is right.
# SHOULD-SAY: The gradients are never all-reduced: taking replica 0 gives shard 0's gradient, not the batch gradient. pmean the grads across "data" (as for the loss) before unreplicating, or compute jax.value_and_grad(loss_fn) on the whole batch.
"""Exercise 5: clipping before Adam, with the global norm and the step written for shards."""

import jax
import jax.numpy as jnp
import optax
import numpy as np

N_SHARDS = 8  # cores of the pod slice; emulated on one CPU with vmap(axis_name=...)


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def _global_norm_over_model_shards(updates):
    # the flat gradient is laid out over the model shards; each core sums its
    # squares and the cores psum them into the one global squared norm
    flat = jnp.concatenate([jnp.ravel(leaf) for leaf in jax.tree.leaves(updates)])
    per = -(-flat.shape[0] // N_SHARDS)
    chunks = jnp.pad(flat, (0, per * N_SHARDS - flat.shape[0])).reshape(N_SHARDS, per)
    sumsq = jax.vmap(lambda c: jax.lax.psum(jnp.sum(c * c), "model"), axis_name="model")(chunks)
    return jnp.sqrt(sumsq[0])


def _clip_by_global_norm_sharded(max_norm):
    def init_fn(params):
        del params
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        del params
        g_norm = _global_norm_over_model_shards(updates)
        clipped = jax.tree.map(
            lambda g: jnp.where(g_norm < max_norm, g, (g / g_norm) * max_norm), updates
        )
        return clipped, state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(_clip_by_global_norm_sharded(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted data-parallel training step that updates params through `optimizer`."""

    def replica(params, xs, ys):
        # one data-parallel core: loss and grads on its shard, then all-reduce
        loss, grads = jax.value_and_grad(loss_fn)(params, xs, ys)
        loss = jax.lax.pmean(loss, "data")
        return loss, grads

    @jax.jit
    def step(params, opt_state, x, y):
        batch = x.shape[0]
        n = int(np.gcd(batch, N_SHARDS))
        xs = x.reshape(n, batch // n, x.shape[1])
        ys = y.reshape(n, batch // n)
        losses, grads = jax.vmap(replica, in_axes=(None, 0, 0), axis_name="data")(params, xs, ys)
        # every replica holds the same all-reduced values: unreplicate (take replica 0)
        loss = losses[0]
        grads = jax.tree.map(lambda g: g[0], grads)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
