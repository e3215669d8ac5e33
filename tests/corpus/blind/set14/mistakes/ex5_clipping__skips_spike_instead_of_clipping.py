# BLIND-SET: 14
# EXERCISE: ex5
# WHAT: make_optimizer chains a hand-written transform that zeroes any gradient whose global norm exceeds max_norm (skip the spike) instead of rescaling it to max_norm, then Adam.
# SHOULD-SAY: make_train_step is right (jitted, uses the given optimizer, returns new params, state and the pre-update loss), and updates match while gradients stay below max_norm, but make_optimizer is wrong on a norm spike: a gradient with global norm above max_norm is replaced by zeros instead of being scaled down to norm max_norm, so Adam's moments and the following updates differ; use optax.clip_by_global_norm(max_norm) before optax.adam(learning_rate).
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


def _skip_large_gradients(max_norm):
    """Drop (zero) any gradient whose global norm exceeds max_norm."""

    def init_fn(params):
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        ok = optax.global_norm(updates) <= max_norm
        return jax.tree.map(lambda g: jnp.where(ok, g, jnp.zeros_like(g)), updates), state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(_skip_large_gradients(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
