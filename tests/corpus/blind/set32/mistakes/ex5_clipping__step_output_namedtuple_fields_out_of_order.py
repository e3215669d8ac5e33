# BLIND-SET: 32
# EXERCISE: ex5
# WHAT: the step returns a StepOutput NamedTuple built with keywords, but its fields are declared (params, loss, opt_state); a NamedTuple unpacks in declaration order, so callers doing `params, opt_state, loss = step(...)` get the loss as opt_state and the optimizer state as the loss. New params are right; the second and third outputs are swapped (and the next step, fed the loss as its state, raises).
# SHOULD-SAY: step returns (params, loss, opt_state) instead of (params, opt_state, loss): StepOutput's fields are declared with loss before opt_state, and tuple unpacking follows the declaration order, not the keywords you built it with. Declare the fields as params, opt_state, loss.
"""Exercise 5 (reference): gradient clipping chained before Adam."""

from typing import NamedTuple

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


class StepOutput(NamedTuple):
    """What one training step returns."""

    params: dict
    loss: jax.Array
    opt_state: tuple


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return StepOutput(params=optax.apply_updates(params, updates), opt_state=opt_state, loss=loss)

    return step
