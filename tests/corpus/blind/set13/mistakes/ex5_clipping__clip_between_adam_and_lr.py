# BLIND-SET: 13
# EXERCISE: ex5
# WHAT: The optimizer is assembled from parts as scale_by_adam -> clip_by_global_norm -> scale(-lr), so the clip acts on Adam's normalised direction instead of the raw gradients.
# SHOULD-SAY: make_train_step is correct (jitted, value_and_grad at incoming params, threads state, returns pre-update loss); make_optimizer is not numerically equal to chain(clip_by_global_norm, adam): the clipping sits after Adam's scaling (on the update direction) instead of before it on the gradients, so updates differ whenever gradients exceed max_norm or the Adam direction's norm exceeds max_norm.
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
    return optax.chain(
        optax.scale_by_adam(),
        optax.clip_by_global_norm(max_norm),
        optax.scale(-learning_rate),
    )


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
