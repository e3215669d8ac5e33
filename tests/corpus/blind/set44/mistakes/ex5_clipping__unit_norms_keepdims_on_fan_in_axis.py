# BLIND-SET: 44
# EXERCISE: ex5
# WHAT: make_optimizer chains a hand-written clip before optax.adam. The clip builds the global squared norm per output unit as sum(w**2, axis=-1, keepdims=True) + b**2, meaning axis=0. With axis=-1 the (in, 1) row sums broadcast against the (out,) bias squares to an (in, out) table, so the "global norm" is sqrt(out*sum(w**2) + in*sum(b**2)), about sqrt(out) times too large for the lesson's layers. Gradients are clipped when they should not be, or scaled down too far. Adam's eps is not scale-free, and the factor changes from step to step, so the updates differ from the first step on, and again at a norm spike. The loss function and the train step are right.
# SHOULD-SAY: The clipping norm is wrong: the per-unit sum of squares reduces the weight over its output axis (axis=-1) instead of its fan-in (axis=0), and with keepdims the (in, 1) result silently broadcasts against the bias to an (in, out) table, overcounting every term. Reduce over axis=0 so each unit's column matches its bias, or use optax.clip_by_global_norm(max_norm) / optax.global_norm.
"""Exercise 5: gradient clipping chained before Adam (hand-written per-unit clip)."""

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
    """Scale the whole gradient tree down to global L2 norm `max_norm` when it is larger."""

    def init_fn(params):
        del params
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        del params
        sq = 0.0
        for layer in updates.values():                       # {"w": (in, out), "b": (out,)}
            # squared norm of each output unit: its incoming weights plus its bias -> (1, out)
            unit_sq = jnp.sum(jnp.square(layer["w"]), axis=-1, keepdims=True) + jnp.square(layer["b"])
            sq = sq + jnp.sum(unit_sq)
        g_norm = jnp.sqrt(sq)
        scale = jnp.where(g_norm < max_norm, 1.0, max_norm / g_norm)
        return jax.tree.map(lambda u: u * scale.astype(u.dtype), updates), state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(_clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)      # scalar, tree like params
        updates, opt_state = optimizer.update(grads, opt_state, params)
        new_params = jax.tree.map(jnp.add, params, updates)          # leafwise p + u
        return new_params, opt_state, loss

    return step
