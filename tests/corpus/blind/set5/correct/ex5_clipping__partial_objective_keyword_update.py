# BLIND-SET: correct
# EXERCISE: ex5
# WHAT: make_optimizer chains a list of transforms built with keyword arguments; the step is a module-level function bound to the optimizer with functools.partial and jitted, and differentiates functools.partial(loss_fn, x=x, y=y) with jax.value_and_grad, passing params to optimizer.update by keyword.
# SHOULD-SAY: full marks
"""Exercise 5 (alternative solution): gradient clipping chained before Adam."""

import functools

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
    transforms = [
        optax.clip_by_global_norm(max_norm=max_norm),
        optax.adam(learning_rate=learning_rate),
    ]
    return optax.chain(*transforms)


def _step(optimizer, params, opt_state, x, y):
    objective = functools.partial(loss_fn, x=x, y=y)
    loss, grads = jax.value_and_grad(objective)(params)
    updates, new_opt_state = optimizer.update(grads, opt_state, params=params)
    return optax.apply_updates(params, updates), new_opt_state, loss


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""
    return jax.jit(functools.partial(_step, optimizer))
