# BLIND-SET: 23
# EXERCISE: ex5
# WHAT: the train step calls optimizer.update(params, opt_state, grads): the first argument (the updates to transform) is params, so clipping and Adam run on the parameter values instead of the gradients; new params and new state are wrong, the returned loss is still right
# SHOULD-SAY: The training step gives the wrong new params and optimizer state: optimizer.update takes (updates, state, params), and you pass the params where the gradients go, so Adam is fed the weights themselves and the gradient is ignored. The loss is correct. Call optimizer.update(grads, opt_state, params).
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
        updates, opt_state = optimizer.update(params, opt_state, grads)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
