# BLIND-SET: mistake
# EXERCISE: ex5
# WHAT: the train step differentiates its own loss with label smoothing 0.1 (optax.smooth_labels) 'to regularise', instead of the lesson's loss_fn. Both the returned loss and the gradients (hence new params and Adam state) differ from the reference; loss_fn itself is untouched.
# SHOULD-SAY: the train-step check fails: the returned loss is not loss_fn at the incoming params and the new params/state differ; the report should say the step must use jax.value_and_grad(loss_fn) (plain cross-entropy, no smoothing). make_optimizer passes.
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
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def smoothed_loss_fn(params, x, y, smoothing=0.1):
    """Cross-entropy against label-smoothed targets."""
    logits = forward(params, x)
    targets = optax.smooth_labels(jax.nn.one_hot(y, 10), smoothing)
    return jnp.mean(optax.softmax_cross_entropy(logits, targets))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(smoothed_loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
