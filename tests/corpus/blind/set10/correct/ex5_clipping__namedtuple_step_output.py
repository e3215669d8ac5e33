# BLIND-SET: correct
# EXERCISE: ex5
# WHAT: make_optimizer is optax.chain over a generator of (clip, adam) stages; make_train_step jits a step that returns a typing.NamedTuple StepOutput(params, opt_state, loss) (a tuple subclass) and reads the update through optax.apply_updates.
# SHOULD-SAY: full marks
"""Exercise 5: clipping before Adam; the step returns a named result tuple."""

from typing import Any, NamedTuple

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


class StepOutput(NamedTuple):
    """What one training step returns; unpacks like (params, opt_state, loss)."""

    params: Any
    opt_state: Any
    loss: Any


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    factories = ((optax.clip_by_global_norm, max_norm), (optax.adam, learning_rate))
    return optax.chain(*(factory(arg) for factory, arg in factories))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""
    loss_and_grads = jax.value_and_grad(loss_fn)

    def step(params, opt_state, x, y):
        loss, grads = loss_and_grads(params, x, y)
        updates, new_opt_state = optimizer.update(grads, opt_state, params)
        return StepOutput(optax.apply_updates(params, updates), new_opt_state, loss)

    return jax.jit(step)
