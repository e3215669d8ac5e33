# BLIND-SET: 54
# EXERCISE: ex5
# WHAT: Correct. The default optimizer (1e-3, 1.0) is built once at import and returned when both arguments equal the defaults exactly; other settings build optax.chain(clip_by_global_norm, adam) afresh. make_train_step keeps jitted steps in a dict keyed by the optimizer object itself (a strong reference, so no id reuse), with value_and_grad hoisted to module level; the step returns the new params, new state and the loss at the incoming params.
# SHOULD-SAY: Nothing to fix: make_optimizer and make_train_step meet the contract (full marks).
"""Exercise 5: gradient clipping before Adam, built and compiled once per setting."""

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

_DEFAULTS = (1e-3, 1.0)


def _clip_then_adam(learning_rate, max_norm):
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


_DEFAULT_OPTIMIZER = _clip_then_adam(*_DEFAULTS)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    if (learning_rate, max_norm) == _DEFAULTS:
        return _DEFAULT_OPTIMIZER  # transformations are stateless: safe to share
    return _clip_then_adam(learning_rate, max_norm)


_VG = jax.value_and_grad(loss_fn)
_STEPS = {}


def _build_step(optimizer):
    def step(params, opt_state, x, y):
        loss, grads = _VG(params, x, y)
        updates, next_state = optimizer.update(grads, opt_state, params)
        next_params = jax.tree.map(lambda p, u: p + u, params, updates)
        return next_params, next_state, loss

    return jax.jit(step)


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""
    try:
        step = _STEPS.get(optimizer)
    except TypeError:  # unhashable optimizer: no caching
        return _build_step(optimizer)
    if step is None:
        step = _STEPS[optimizer] = _build_step(optimizer)
    return step
