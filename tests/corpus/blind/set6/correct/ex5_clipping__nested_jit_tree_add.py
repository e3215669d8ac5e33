# BLIND-SET: correct
# EXERCISE: ex5
# WHAT: The loss-and-gradient function is a module-level jax.jit(jax.value_and_grad(loss_fn)) called inside the jitted step (nested jit), the optimizer is optax.chain built from a list, and params are updated with optax.tree_utils.tree_add.
# SHOULD-SAY: full marks
"""Exercise 5: gradient clipping before Adam (nested jit, tree_add update)."""

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


_loss_and_grads = jax.jit(jax.value_and_grad(loss_fn))


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    transforms = [optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)]
    return optax.chain(*transforms)


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    def step(params, opt_state, x, y):
        loss, grads = _loss_and_grads(params, x, y)
        updates, new_opt_state = optimizer.update(grads, opt_state, params)
        new_params = optax.tree_utils.tree_add(params, updates)
        return new_params, new_opt_state, loss

    return jax.jit(step)
