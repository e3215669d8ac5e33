# BLIND-SET: 49
# EXERCISE: ex5
# WHAT: make_train_step all-reduces the per-shard mean losses with psum instead of pmean (the gradients are pmeaned correctly), so the returned loss is gcd(B, 8) times the batch mean loss (8 times too large for B = 128, 2 times for B = 2 mod 4); the new params and state are right, and B odd is right.
# SHOULD-SAY: The returned loss must be the batch mean: each shard already returns its mean loss, so average them with lax.pmean (as for the grads), not lax.psum, which multiplies the loss by the number of shards.
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
        loss = jax.lax.psum(loss, "data")
        grads = jax.lax.pmean(grads, "data")
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
