# BLIND-SET: mistake
# EXERCISE: ex5
# WHAT: the train step divides the gradients by the batch size before the optimizer ("average over the batch"), although loss_fn already takes the mean, so the optimizer sees gradients B times too small: clipping rarely triggers and Adam's eps weighs more, giving wrong params and state.
# SHOULD-SAY: ex5 make_train_step fails the new-params/new-state check: the gradients of the mean loss are divided by the batch size a second time before optimizer.update; pass the gradients from jax.value_and_grad(loss_fn) unchanged. make_optimizer and the returned loss are right.
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


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        grads = jax.tree.map(lambda g: g / x.shape[0], grads)  # average over the batch
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
