# BLIND-SET: 15
# EXERCISE: ex5
# WHAT: make_optimizer chains a hand-written global-norm clip whose scale factor is jnp.minimum(1.0, max_norm // norm), a floor division, so any gradient whose norm exceeds max_norm is multiplied by 0 instead of by max_norm / norm.
# SHOULD-SAY: The chain order (clip, then Adam), the global norm itself and make_train_step are right, and gradients below max_norm pass through unchanged, but the clip factor uses `//`: whenever the global norm is above max_norm, max_norm // norm == 0, so the gradient is zeroed instead of rescaled to norm max_norm; updates differ from clip_by_global_norm + Adam from the first oversized gradient on (e.g. the norm spike). Use true division, max_norm / norm (or optax.clip_by_global_norm).
"""Exercise 5: gradient clipping chained before Adam."""

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
    """Scale the whole gradient down when its global L2 norm exceeds max_norm."""

    def init_fn(params):
        del params
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        del params
        norm = jnp.sqrt(sum(jnp.sum(g**2) for g in jax.tree.leaves(updates)))
        scale = jnp.minimum(1.0, max_norm // norm)
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
