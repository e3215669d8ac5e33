# BLIND-SET: 15
# EXERCISE: ex5
# WHAT: make_optimizer stores its arguments in a config dict under the keys "lr" and "max_grad_norm" but reads them back with config.get("learning_rate", 1e-3) and config.get("max_norm", 1.0), so both arguments silently fall back to the defaults.
# SHOULD-SAY: With the default arguments everything matches (clip then Adam, and make_train_step is right), but make_optimizer ignores the learning_rate and max_norm it is given: the dict keys it writes ("lr", "max_grad_norm") differ from the keys it reads, and .get() silently returns the defaults 1e-3 and 1.0, so updates are wrong for any other learning rate or clipping threshold. Use the same key names (or pass the arguments straight to optax), and prefer config[key] so a typo raises instead of falling back.
"""Exercise 5: gradient clipping chained before Adam."""

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
    config = {"lr": learning_rate, "max_grad_norm": max_norm}
    clip = optax.clip_by_global_norm(config.get("max_norm", 1.0))
    adam = optax.adam(config.get("learning_rate", 1e-3))
    return optax.chain(clip, adam)


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step

