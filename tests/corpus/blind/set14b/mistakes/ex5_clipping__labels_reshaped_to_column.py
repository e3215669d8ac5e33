# BLIND-SET: 14
# EXERCISE: ex5
# WHAT: the training step reshapes the labels to a (B, 1) column (Keras sparse-target habit) before calling loss_fn, so one_hot gives (B, 1, 10), broadcasting against the (B, 10) log-probabilities produces a (B, B, 10) array and the loss averages every example against every label.
# SHOULD-SAY: make_optimizer is right and the step is jitted, threads the state and uses the given optimizer, but the loss and gradients are wrong for any batch larger than 1: y.reshape(-1, 1) makes loss_fn broadcast each example's log-probabilities against all the labels in the batch, silently computing a different objective, so the new params, new state and returned loss all differ from the expected ones. Pass y with shape (B,) unchanged.
"""Exercise 5: gradient clipping in an optax chain."""

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
    """An optax optimizer that clips, then applies Adam."""
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """Build a jitted training step for ``optimizer``."""

    @jax.jit
    def step(params, opt_state, x, y):
        y = y.reshape(-1, 1)  # labels as a column of class indices
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
