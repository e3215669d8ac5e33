# BLIND-SET: 31
# EXERCISE: ex5
# WHAT: Correct rewrite: make_optimizer maps each (factory, argument) pair, listed in chain order, through a lambda and star-unpacks the result into optax.chain; make_train_step jits functools.partial(_step, optimizer) of a module-level step that takes the optimizer first and unpacks the update into (updates, state).
# SHOULD-SAY: Nothing to fix: clip_by_global_norm(max_norm) then adam(learning_rate), and a jitted step that returns new params, new state and the loss at the incoming params.
"""Exercise 5 (reference): gradient clipping chained before Adam."""

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
    pairs = ((optax.clip_by_global_norm, max_norm), (optax.adam, learning_rate))
    return optax.chain(*map(lambda pair: pair[0](pair[1]), pairs))


def _step(optimizer, params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, new_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), new_state, loss


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""
    return jax.jit(functools.partial(_step, optimizer))
