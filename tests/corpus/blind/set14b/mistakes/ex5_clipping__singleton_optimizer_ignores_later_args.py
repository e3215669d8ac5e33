# BLIND-SET: 14
# EXERCISE: ex5
# WHAT: make_optimizer builds the clip+Adam chain once and caches it in a module-level singleton, so every later call returns the first optimizer whatever learning_rate and max_norm it is given.
# SHOULD-SAY: The chain itself is right (clip_by_global_norm before Adam) and make_train_step is right, but make_optimizer ignores its arguments after the first call: the second and later calls return the optimizer built with the first learning_rate / max_norm, so the updates are wrong for every other setting. Build a new optax.chain on every call (optax transformations are cheap, stateless objects).
"""Exercise 5: gradient clipping in an optax chain."""

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


_OPTIMIZER = None  # built once, shared by every caller


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """An optax optimizer that clips, then applies Adam."""
    global _OPTIMIZER
    if _OPTIMIZER is None:
        _OPTIMIZER = optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))
    return _OPTIMIZER


def make_train_step(optimizer):
    """Build a jitted training step for ``optimizer``."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
