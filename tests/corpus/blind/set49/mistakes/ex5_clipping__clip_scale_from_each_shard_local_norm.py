# BLIND-SET: 49
# EXERCISE: ex5
# WHAT: make_optimizer's clip lays the flat gradient out over 8 emulated model shards and clips each shard by its own local norm instead of the global one (no psum), so each eighth of the flattened gradient is capped at max_norm separately: the clipped gradient can have a norm up to sqrt(8)*max_norm and its direction changes whenever some shards exceed max_norm and others do not. Updates differ from clip_by_global_norm + adam from the first step whose gradient norm exceeds max_norm (e.g. on a spike).
# SHOULD-SAY: Clipping must use the global norm over all leaves together: sum the shards' squared norms with lax.psum (or use optax.clip_by_global_norm) and scale every element by the same factor max_norm / global_norm. A per-shard norm clips the shards independently.
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


def _clip_chunk(chunk, max_norm):
    # each model-parallel core clips the slice of the flat gradient it holds
    g_norm = jnp.sqrt(jnp.sum(chunk * chunk))
    return jnp.where(g_norm < max_norm, chunk, (chunk / g_norm) * max_norm)


def _clip_by_global_norm_sharded(max_norm):
    def init_fn(params):
        del params
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        del params
        leaves, treedef = jax.tree.flatten(updates)
        flat = jnp.concatenate([jnp.ravel(leaf) for leaf in leaves])
        size = flat.shape[0]
        per = -(-size // N_SHARDS)
        chunks = jnp.pad(flat, (0, per * N_SHARDS - size)).reshape(N_SHARDS, per)
        clipped_flat = jax.vmap(_clip_chunk, in_axes=(0, None), axis_name="model")(chunks, max_norm)
        clipped_flat = clipped_flat.reshape(-1)[:size]
        out, offset = [], 0
        for leaf in leaves:
            out.append(clipped_flat[offset : offset + leaf.size].reshape(leaf.shape))
            offset += leaf.size
        return jax.tree.unflatten(treedef, out), state

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
