# BLIND-SET: 25
# EXERCISE: ex5
# WHAT: loss_fn sums the log-probability * one-hot product over axis=0 (the batch) and then takes the mean over the 10 classes, so the loss is the batch total divided by 10 instead of by B. The shapes still fit, so nothing fails: the step returns a loss B/10 times too large (equal only when B == 10), and its gradients are scaled the same way, which changes where clipping engages and therefore the updates.
# SHOULD-SAY: The inner sum must run over the class axis (axis=-1) to pick each example's log-probability, and the mean over the batch; summing over axis 0 and averaging over classes swaps the two reductions. Use jnp.sum(..., axis=-1) inside jnp.mean, as in the lesson.
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
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=0))


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
