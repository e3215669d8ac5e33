# BLIND-SET: 29
# EXERCISE: ex5
# WHAT: the hand-written clipping stage scales the gradient by min(1, norm / max_norm) instead of min(1, max_norm / norm): gradients below max_norm are shrunk in proportion to their norm and gradients above it (the spike) pass through unclipped, so over a sequence of gradients the chain's updates and state differ from clip_by_global_norm followed by Adam (already at the first update), and so do the training step's new params and state.
# SHOULD-SAY: The clipping factor is upside down: it must be max_norm / norm (capped at 1), which is below 1 exactly when the norm exceeds max_norm. Write scale = jnp.minimum(1.0, max_norm / g_norm), or use optax.clip_by_global_norm(max_norm).
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
        leaves = jax.tree.leaves(updates)
        g_norm = jnp.sqrt(sum(jnp.vdot(g, g) for g in leaves))  # vdot flattens each leaf
        scale = jnp.minimum(1.0, g_norm / max_norm)
        return jax.tree.map(lambda g: g * scale, updates), state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(_clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
