# BLIND-SET: 33
# EXERCISE: ex5
# WHAT: make_optimizer calls optax.clip_by_global_norm(clip_norm=max_norm) inside try/except TypeError; the keyword does not exist, the TypeError is swallowed and optax.identity() is used, so no clipping ever happens: updates after a gradient spike are plain Adam's.
# SHOULD-SAY: The except hides a real error (the parameter is max_norm, not TensorFlow's clip_norm) and silently drops clipping. Call optax.clip_by_global_norm(max_norm) and remove the fallback.
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


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    try:
        clip = optax.clip_by_global_norm(clip_norm=max_norm)
    except TypeError:
        clip = optax.identity()  # older optax without the keyword: skip clipping
    return optax.chain(clip, optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
