# BLIND-SET: mistake
# EXERCISE: ex5
# WHAT: make_train_step stores the optimizer in a module global read by one module-level jitted step; jit traces once, so a second step built with another optimizer of the same state structure (e.g. other lr/max_norm) silently reuses the first.
# SHOULD-SAY: ex5 make_train_step 'uses the optimizer it is given' check fails once a step was built and run with an earlier optimizer: the jit cache keeps the trace made with the first optimizer (the global is read only at trace time); a single step in a fresh process is right.
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


_optimizer = None


@jax.jit
def _step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = _optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""
    global _optimizer
    _optimizer = optimizer
    return _step
