# BLIND-SET: 49
# EXERCISE: ex5
# WHAT: make_optimizer chains a hand-written clip (the global norm from per-model-shard sums of squares combined with psum over 8 emulated shards, scale max_norm/norm when norm >= max_norm, EmptyState like optax) before optax.adam; make_train_step is a jitted GSPMD-style step: with_sharding_constraint puts the batch on P("data") and params on P() of a Mesh over jax.devices(), then value_and_grad on the whole batch and an update through the given optimizer. Numerically equal to clip_by_global_norm + adam and to the reference step.
# SHOULD-SAY: Nothing to fix: the clip uses the global norm over all leaves, clipping comes before Adam, and the sharded step computes the full-batch loss and gradient (sharding annotations do not change values).
"""Exercise 5: clipping before Adam, with the global norm and the step written for shards."""

import jax
import jax.numpy as jnp
import optax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

N_SHARDS = 8  # cores of the pod slice; emulated on one CPU with vmap(axis_name=...)
MESH = Mesh(np.array(jax.devices()), ("data",))


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
    """A jitted training step, data-parallel in the GSPMD way: shard the batch, replicate params."""

    @jax.jit
    def step(params, opt_state, x, y):
        # batch split over the "data" axis of the mesh, params replicated; under jit
        # XLA inserts the all-reduce of the gradients itself (on one CPU it is a no-op)
        x = jax.lax.with_sharding_constraint(x, NamedSharding(MESH, P("data")))
        y = jax.lax.with_sharding_constraint(y, NamedSharding(MESH, P("data")))
        params = jax.lax.with_sharding_constraint(params, NamedSharding(MESH, P()))
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
