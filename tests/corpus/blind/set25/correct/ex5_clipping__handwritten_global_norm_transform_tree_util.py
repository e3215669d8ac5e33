# BLIND-SET: 25
# EXERCISE: ex5
# WHAT: correct rewrite: a hand-written optax.GradientTransformation computes optax.global_norm(updates) once and rescales every leaf by max_norm / norm when the norm is at least max_norm (optax's own formula, EmptyState state), chained before optax.adam; the step is jax.jit(step) built from jax.value_and_grad and applies updates with jax.tree_util.tree_map(lambda p, u: p + u, ...).
# SHOULD-SAY: nothing to fix: updates, state, new params and the pre-update loss match clip_by_global_norm + adam, and the step is jitted.
"""Exercise 5: gradient clipping chained before Adam, hand-written the old way."""

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


def clip_by_global_norm_(max_norm):
    """Old-style hand-written global-norm clipping (what optax.clip_by_global_norm does)."""

    def init_fn(params):
        del params
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        del params
        g_norm = optax.global_norm(updates)
        small = g_norm < max_norm
        clipped = jax.tree_util.tree_map(
            lambda g: jnp.where(small, g, (g / g_norm.astype(g.dtype)) * max_norm), updates
        )
        return clipped, state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(clip_by_global_norm_(max_norm), optax.adam(learning_rate=learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""
    grad_fn = jax.value_and_grad(loss_fn)

    def step(params, opt_state, x, y):
        loss, grads = grad_fn(params, x, y)
        updates, new_opt_state = optimizer.update(grads, opt_state, params)
        new_params = jax.tree_util.tree_map(lambda p, u: p + u, params, updates)
        return new_params, new_opt_state, loss

    return jax.jit(step)
