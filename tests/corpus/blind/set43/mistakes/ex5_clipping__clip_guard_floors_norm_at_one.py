# BLIND-SET: 43
# EXERCISE: ex5
# WHAT: the hand-written clip computes the factor as max_norm / maximum(norm, 1.0) (a division guard written with the literal 1.0) instead of max_norm / maximum(norm, max_norm). At the default max_norm = 1 this is exact; for any other max_norm, a gradient with norm < 1 is multiplied by max_norm (halved at 0.5, x5 at 5) instead of being left alone or clipped to max_norm, and one with 1 <= norm < max_norm is pushed up to max_norm, so the updates after Adam differ from clip-then-Adam on such steps (large gradients, norm >= max(1, max_norm), are clipped correctly).
# SHOULD-SAY: clipping rescales gradients it should leave alone when max_norm != 1: the guard in the denominator must be max(norm, max_norm), so the factor is min(1, max_norm / norm). Or use optax.clip_by_global_norm(max_norm).
"""Exercise 5: gradient clipping in an optax chain, clip written by hand.

The global norm is reduced in float32 and the clip factor never divides by a
vanishing norm.
"""

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
    """Scale the whole gradient so its global L2 norm is at most `max_norm`."""

    def init_fn(params):
        del params
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        del params
        leaves = jax.tree.leaves(updates)
        sumsq = sum(jnp.sum(jnp.square(g.astype(jnp.float32))) for g in leaves)
        norm = jnp.sqrt(sumsq)
        # Guarded: never divide by a norm smaller than 1.
        factor = max_norm / jnp.maximum(norm, 1.0)
        return jax.tree.map(lambda g: (g * factor).astype(g.dtype), updates), state

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
