# BLIND-SET: 16
# EXERCISE: ex5
# WHAT: loss_fn takes jax.nn.log_softmax(logits, axis=0), normalising over the batch axis instead of over the 10 classes.
# SHOULD-SAY: make_optimizer is right and the step is jitted, uses value_and_grad at the incoming params, updates through the optimizer and returns the loss before the update, but the loss itself is not the softmax cross-entropy: log_softmax is taken over axis 0 (the examples in the batch) instead of the class axis, so the returned loss, the gradients and therefore the new params are all wrong; use log_softmax over the last axis (the default).
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
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits, axis=0) * jax.nn.one_hot(y, 10), axis=-1))


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
