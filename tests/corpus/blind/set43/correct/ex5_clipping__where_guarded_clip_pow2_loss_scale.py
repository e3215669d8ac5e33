# BLIND-SET: 43
# EXERCISE: ex5
# WHAT: correct. The clip is hand-written: global norm from float32 sums of squares, factor = max_norm / norm where norm > max_norm (where-guarded so the untaken branch never divides by 0) and 1 otherwise, chained before optax.adam. The step uses a power-of-two static loss scale (2**8) and divides both the gradients and the returned loss by it, which is exact in float32, then applies the updates with optax.apply_updates. Updates, new params, state and loss equal the reference to float32 tolerance.
# SHOULD-SAY: nothing to fix: full marks.
"""Exercise 5: gradient clipping in an optax chain, precision-first."""

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


LOSS_SCALE = 2.0**8  # power of two: multiplying and dividing by it is exact


def _clip_by_global_norm(max_norm):
    """Scale the whole gradient down to global L2 norm `max_norm` if it is larger."""

    def init_fn(params):
        del params
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        del params
        leaves = jax.tree.leaves(updates)
        norm = jnp.sqrt(sum(jnp.sum(jnp.square(jnp.asarray(g, jnp.float32))) for g in leaves))
        over = norm > max_norm
        safe_norm = jnp.where(over, norm, 1.0)
        factor = jnp.where(over, max_norm / safe_norm, 1.0)
        return jax.tree.map(lambda g: (g * factor).astype(g.dtype), updates), state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(_clip_by_global_norm(max_norm), optax.adam(learning_rate))


def _scaled_loss(params, x, y):
    return loss_fn(params, x, y) * LOSS_SCALE


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        scaled_loss, scaled_grads = jax.value_and_grad(_scaled_loss)(params, x, y)
        grads = jax.tree.map(lambda g: g / LOSS_SCALE, scaled_grads)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, scaled_loss / LOSS_SCALE

    return step
