# BLIND-SET: correct
# EXERCISE: ex5
# WHAT: make_optimizer wraps the clip+Adam chain in optax.with_extra_args_support (same init/update, same state); the step passes arguments to update by keyword and adds updates with jax.tree.map(jnp.add, ...).
# SHOULD-SAY: full marks
"""Exercise 5: clipping then Adam, wrapped for extra-args support."""

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
    stages = [optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)]
    return optax.with_extra_args_support(optax.chain(*stages))


def make_train_step(optimizer):
    grad_fn = jax.value_and_grad(loss_fn)

    def step(params, opt_state, x, y):
        loss, grads = grad_fn(params, x, y)
        updates, new_state = optimizer.update(updates=grads, state=opt_state, params=params)
        new_params = jax.tree.map(jnp.add, params, updates)
        return new_params, new_state, loss

    return jax.jit(step)
