# BLIND-SET: 18
# EXERCISE: ex5
# WHAT: a hand-written clipping transform skips the square root in its trigger test (sum of squares > max_norm instead of norm > max_norm) but rescales with the true norm; identical to clip_by_global_norm only when max_norm == 1.
# SHOULD-SAY: the chain order (clip then Adam), the Adam settings and the train step are right, and with max_norm=1.0 the updates match; but the clip compares the squared global norm with max_norm, so for max_norm > 1 gradients with sqrt(max_norm) < norm < max_norm are scaled UP to max_norm, and for max_norm < 1 gradients with max_norm < norm < sqrt(max_norm) are not clipped; compare the norm itself (or compare with max_norm**2), or simply use optax.clip_by_global_norm(max_norm).
"""Exercise 5: gradient clipping in an optax chain."""

import jax
import jax.numpy as jnp
import optax

# --- Given: the lesson's model and loss ----------------------------------------


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


# --- Your code ----------------------------------------------------------------


def _clip_global_norm(max_norm):
    """Scale the whole gradient down when its global norm exceeds max_norm."""

    def init_fn(params):
        del params
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        del params
        leaves = jax.tree.leaves(updates)
        sq_norm = sum(jnp.vdot(g, g) for g in leaves)
        # compare without the sqrt, it is only needed for the rescale
        scale = jnp.where(sq_norm > max_norm, max_norm / jnp.sqrt(sq_norm), 1.0)
        return jax.tree.map(lambda g: g * scale, updates), state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """An optax optimizer that clips, then applies Adam."""
    return optax.chain(_clip_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """Build a jitted training step for ``optimizer``."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
