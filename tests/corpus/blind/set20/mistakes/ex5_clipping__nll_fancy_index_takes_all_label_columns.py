# BLIND-SET: 20
# EXERCISE: ex5
# WHAT: the file's loss_fn picks the true-class log-probabilities with log_probs[:, y], which selects every label column for every row (a (B, B) matrix) instead of log_probs[jnp.arange(B), y], so the loss and its gradients average over all example/label pairs
# SHOULD-SAY: make_optimizer (clip then Adam) and the structure of the step (value_and_grad at the incoming params, optimizer.update, apply_updates, loss before the update) are right, but the loss is wrong: log_probs[:, y] takes all B label columns for each row, so the mean is over B*B pairs rather than each example's own label; index with log_probs[jnp.arange(len(y)), y] (or use the one-hot sum from the lesson)

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
    log_probs = jax.nn.log_softmax(logits)
    return -jnp.mean(log_probs[:, y])  # pick each example's true-class log-probability


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
