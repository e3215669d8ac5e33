# BLIND-SET: 16
# EXERCISE: ex5
# WHAT: loss_fn divides the summed cross-entropy by a hard-coded 128 (the lesson's batch size) instead of taking the mean over the actual batch.
# SHOULD-SAY: make_optimizer (clip_by_global_norm then adam) and the structure of the jitted step (value_and_grad at the incoming params, update through the optimizer, loss before the update) are right, but the loss is only the mean when the batch has exactly 128 examples: for any other batch size B the returned loss and the gradients are scaled by B/128 (Adam largely hides the gradient scale, so the params move almost as they should, but the reported loss is wrong and whether clipping kicks in changes); use jnp.mean over the batch instead of dividing by 128.
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
    return -jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10)) / 128  # batch size


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
