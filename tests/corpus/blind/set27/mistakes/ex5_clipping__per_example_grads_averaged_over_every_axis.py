# BLIND-SET: 27
# EXERCISE: ex5
# WHAT: The step computes per-example losses and gradients with jax.vmap(jax.value_and_grad(loss_fn), in_axes=(None, 0, 0)) and averages them with jax.tree.map(jnp.mean, ...), which with no axis reduces each leaf to one scalar. The returned loss is right, but every weight and bias of a leaf receives the same update (Adam broadcasts the scalar), so the new params and optimizer state are wrong from the first step; make_optimizer is right.
# SHOULD-SAY: jnp.mean without an axis averages over every axis, so each gradient leaf collapses to a single number. Average over the example axis only (jax.tree.map(lambda g: g.mean(axis=0), ...)), or simply take jax.value_and_grad(loss_fn)(params, x, y) on the whole batch.
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
        losses, example_grads = jax.vmap(jax.value_and_grad(loss_fn), in_axes=(None, 0, 0))(
            params, x[:, None], y[:, None]
        )
        loss = losses.mean()
        grads = jax.tree.map(jnp.mean, example_grads)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
