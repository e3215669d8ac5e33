# BLIND-SET: 50
# EXERCISE: ex5
# WHAT: The clip is hand-written as direction times capped length, g / norm * min(norm, max_norm), wrapped in a GradientTransformation and chained before optax.adam. For every nonzero gradient it equals clip_by_global_norm, but for an all-zero gradient (or one so tiny, e.g. 1e-21 per element, that its squares underflow and the norm is 0) 0/0 gives NaN: the update is NaN, and Adam's moments and all later updates (and the params after a train step) become NaN, where optax passes the zero gradient through and Adam gives a zero update.
# SHOULD-SAY: An all-zero gradient (global norm exactly 0) produces NaN updates and poisons Adam's state, because the clip divides by the norm before capping it. Scale by a factor that is 1 when norm <= max_norm, e.g. jnp.where(norm < max_norm, g, g * (max_norm / norm)), or use optax.clip_by_global_norm(max_norm).
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
def _clip_global_norm(max_norm):
    """Rescale the whole gradient so its global L2 norm is at most max_norm."""

    def init_fn(params):
        del params
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        del params
        leaves = jax.tree.leaves(updates)
        norm = jnp.sqrt(sum(jnp.sum(jnp.square(g)) for g in leaves))
        length = jnp.minimum(norm, max_norm)
        # unit direction times the capped length
        clipped = jax.tree.map(lambda g: g / norm * length, updates)
        return clipped, state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(_clip_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
