# BLIND-SET: 51
# EXERCISE: ex5
# WHAT: make_optimizer chains a hand-written clip that rescales only when the global norm exceeds max_norm * 1.05, "so float noise does not trigger a rescale", before optax.adam. Gradients with a norm in (max_norm, 1.05*max_norm] go into Adam unclipped. Where such a gradient is not the first of the sequence, the Adam updates from that step on differ from the reference's. Gradients below max_norm, or more than 5 % above it, are clipped exactly like the reference.
# SHOULD-SAY: Global-norm clipping must rescale every gradient whose norm exceeds max_norm, exactly to max_norm. The 5 % tolerance band lets small overshoots through. Use optax.clip_by_global_norm(max_norm), or compare norm > max_norm with no margin.
"""Exercise 5: gradient clipping in an optax chain (defensive)."""

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


_TOLERANCE = 1.05  # do not rescale for overshoots that are just float noise


def _global_norm(tree):
    leaves = [jnp.asarray(g, dtype=jnp.float32) for g in jax.tree.leaves(tree)]
    if not leaves:
        return jnp.zeros((), dtype=jnp.float32)
    return jnp.sqrt(sum(jnp.sum(g * g) for g in leaves))


def _clip_global(max_norm):
    def init_fn(params):
        del params
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        del params
        norm = _global_norm(updates)
        too_big = norm > max_norm * _TOLERANCE
        scale = jnp.where(too_big, max_norm / jnp.where(too_big, norm, 1.0), 1.0)
        return jax.tree.map(lambda g: (g * scale).astype(g.dtype), updates), state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to max_norm, then apply Adam."""
    max_norm = float(max_norm)
    if not max_norm > 0:
        raise ValueError(f"max_norm must be positive, got {max_norm}")
    return optax.chain(_clip_global(max_norm), optax.adam(float(learning_rate)))


def make_train_step(optimizer):
    """A jitted training step that updates params through optimizer."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
