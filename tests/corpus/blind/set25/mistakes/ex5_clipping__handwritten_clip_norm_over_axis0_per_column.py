# BLIND-SET: 25
# EXERCISE: ex5
# WHAT: a hand-written clip transform computes jnp.linalg.norm(g, axis=0) on every leaf and multiplies by min(1, max_norm / norm): for a weight matrix that is one norm per output column, broadcast silently back over the rows, and for a bias one norm for the leaf. Each column and bias is clipped on its own instead of scaling the whole gradient by its global norm, so the updates differ from clip_by_global_norm + Adam whenever any column exceeds max_norm or the global norm does.
# SHOULD-SAY: Global-norm clipping uses one norm over every element of every leaf (optax.global_norm(updates)) and one scale factor for the whole tree; norm(g, axis=0) reduces only the first axis and the broadcast hides it. Use optax.clip_by_global_norm(max_norm), or compute g_norm = optax.global_norm(updates) once and scale all leaves by min(1, max_norm / g_norm).
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


def clip_by_norm(max_norm):
    """Scale gradients down so their norm is at most `max_norm`."""

    def init_fn(params):
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        def clip(g):
            norm = jnp.linalg.norm(g, axis=0)
            return g * jnp.minimum(1.0, max_norm / norm)

        return jax.tree_util.tree_map(clip, updates), state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(clip_by_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
