# BLIND-SET: 29
# EXERCISE: ex5
# WHAT: Correct rewrite: a hand-written clipping GradientTransformation (global norm from the concatenated raveled leaves, scale min(1, max_norm / norm), EmptyState like optax's) chained before optax.adam; the step is jax.jit(step) adding the updates with jax.tree.map.
# SHOULD-SAY: Nothing to fix: updates equal clip_by_global_norm followed by Adam to float32 rounding (same state structure), and the step returns the new params, new state and the loss at the incoming params, jitted.
"""Exercise 5 (reference): gradient clipping chained before Adam."""

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
    """Scale the whole gradient down so that its global L2 norm is at most `max_norm`."""

    def init_fn(params):
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        flat = jnp.concatenate([jnp.ravel(g) for g in jax.tree.leaves(updates)])
        g_norm = jnp.sqrt(jnp.dot(flat, flat))
        scale = jnp.minimum(1.0, max_norm / g_norm)
        return jax.tree.map(lambda g: g * scale, updates), state

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
