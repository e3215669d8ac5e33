# BLIND-SET: correct
# EXERCISE: ex5
# WHAT: global-norm clipping is written by hand as an optax.GradientTransformation (init returns EmptyState, update rescales every leaf by max_norm / global_norm when the norm reaches max_norm) and chained before optax.adam; the step adds the updates with jax.tree.map and is wrapped with jax.jit.
# SHOULD-SAY: full marks
"""Exercise 5 (alternative solution): gradient clipping chained before Adam."""

import jax
import jax.numpy as jnp
import optax


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def _clip_by_global_norm(max_norm):
    """Hand-written optax transformation: scale the update tree down to `max_norm`."""

    def init_fn(params):
        del params
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        del params
        leaves = jax.tree.leaves(updates)
        g_norm = jnp.sqrt(sum(jnp.sum(jnp.square(u)) for u in leaves))
        small_enough = g_norm < max_norm
        clipped = jax.tree.map(lambda u: jnp.where(small_enough, u, (u / g_norm) * max_norm), updates)
        return clipped, state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(_clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, new_state = optimizer.update(grads, opt_state, params)
        new_params = jax.tree.map(lambda p, u: p + u, params, updates)
        return new_params, new_state, loss

    return jax.jit(step)
