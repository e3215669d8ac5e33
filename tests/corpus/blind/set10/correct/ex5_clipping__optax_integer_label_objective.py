# BLIND-SET: correct
# EXERCISE: ex5
# WHAT: make_optimizer chains the two transforms from a list; the step differentiates its own cross-entropy written with optax.softmax_cross_entropy_with_integer_labels (equal to loss_fn), inside a @jax.jit-decorated step.
# SHOULD-SAY: full marks
"""Exercise 5: clipping before Adam; the step uses optax's integer-label cross-entropy."""

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
    stages = [optax.clip_by_global_norm(max_norm=max_norm), optax.adam(learning_rate)]
    return optax.chain(*stages)


def _objective(params, x, y):
    """The lesson's loss, written with optax's integer-label cross-entropy."""
    return optax.softmax_cross_entropy_with_integer_labels(forward(params, x), y).mean()


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""
    grad_and_value = jax.value_and_grad(_objective)

    @jax.jit
    def train_step(params, opt_state, x, y):
        loss, grads = grad_and_value(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return train_step
