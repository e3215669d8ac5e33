# BLIND-SET: 48
# EXERCISE: ex5
# WHAT: The step's loss picks each label's log-probability with jnp.take(log_probs, y), whose default axis=None indexes the flattened (B, 10) array: every example reads log_probs[0, y_i] from the FIRST row. The loss and the gradients (which only flow through example 0's logits) are wrong for B > 1, so new params, Adam state and loss differ; make_optimizer is right.
# SHOULD-SAY: The loss must be the mean cross-entropy of every example with its own label; jnp.take without axis flattens the array, so all examples read row 0. Use jnp.take_along_axis(log_probs, y[:, None], axis=-1) (or optax.losses.softmax_cross_entropy_with_integer_labels(logits, y).mean()).
"""Exercise 5: gradient clipping in an optax chain, hand-indexed NLL."""

import jax
import jax.numpy as jnp
import optax

# --- Given: the lesson's model and loss ----------------------------------------


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


# --- Your code ----------------------------------------------------------------


def _nll(params, x, y):
    """Mean negative log-likelihood of the labels (no one-hot matrix needed)."""
    log_probs = jax.nn.log_softmax(forward(params, x))
    return -jnp.mean(jnp.take(log_probs, y))


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Global-norm clipping, then Adam."""
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step for optimizer."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(_nll)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.tree.add(params, updates), opt_state, loss

    return step
