# BLIND-SET: 21
# EXERCISE: ex5
# WHAT: the jitted step emulates torch's optimizer.zero_grad() by first running optimizer.update on an all-zeros gradient tree and keeping the resulting state, then doing the real update; Adam's count advances twice per step and its moments decay an extra time, so the new params and state are wrong (make_optimizer is correct).
# SHOULD-SAY: make_optimizer (global-norm clip, then Adam), the loss from value_and_grad at the incoming params and the jit are right, but each step pushes an extra all-zeros gradient through the optimizer before the real one: Adam's step count goes up by 2 and its moment estimates are decayed with a zero gradient, so the update and the returned opt_state differ from one optimizer step. JAX has no accumulated gradients to zero: call optimizer.update once per step with the fresh grads.
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
        # optimizer.zero_grad(): start the step from zero gradients.
        zero_grads = jax.tree.map(jnp.zeros_like, params)
        _, opt_state = optimizer.update(zero_grads, opt_state, params)
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
