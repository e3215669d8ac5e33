# BLIND-SET: 37
# EXERCISE: ex5
# WHAT: Correct rewrite: make_optimizer goes through an lru_cache on its hyperparameters (the same stateless clip-then-Adam chain for equal arguments, uncached fallback for unhashable ones), value_and_grad of the loss is built once at import, and make_train_step returns a jax.jit step with no static or donated arguments; the loss uses a one-hot table precomputed at import.
# SHOULD-SAY: Nothing to fix: optax.chain(clip_by_global_norm(max_norm), adam(learning_rate)), and a jitted step that takes loss and gradients at the incoming params, updates through the optimizer it was given, and returns the new params, new state and the pre-update loss.
"""Exercise 5: gradient clipping chained before Adam, with the optimizer factory cached."""

import functools

import jax
import jax.numpy as jnp
import optax

_ONE_HOT_10 = jnp.eye(10, dtype=jnp.float32)


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    log_probs = jax.nn.log_softmax(forward(params, x))
    return -jnp.mean(jnp.sum(log_probs * _ONE_HOT_10[y], axis=-1))


_loss_and_grads = jax.value_and_grad(loss_fn)


@functools.lru_cache(maxsize=None)
def _cached_optimizer(learning_rate, max_norm):
    clip = optax.clip_by_global_norm(max_norm)
    return optax.chain(clip, optax.adam(learning_rate))


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    try:
        return _cached_optimizer(learning_rate, max_norm)
    except TypeError:  # unhashable hyperparameters (e.g. arrays): build without the cache
        return _cached_optimizer.__wrapped__(learning_rate, max_norm)


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    def step(params, opt_state, x, y):
        loss, grads = _loss_and_grads(params, x, y)
        updates, new_opt_state = optimizer.update(grads, opt_state, params)
        new_params = optax.apply_updates(params, updates)
        return new_params, new_opt_state, loss

    return jax.jit(step)
