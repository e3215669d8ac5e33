# BLIND-SET: correct
# EXERCISE: ex5
# WHAT: Adam is written by hand as a GradientTransformation with optax's update rule (EMA moments, bias correction by 1-b^t, eps outside the square root, -lr scale) and chained after optax.clip_by_global_norm; its state is a custom NamedTuple.
# SHOULD-SAY: full marks for ex5; every check of ex5 passes.
"""Exercise 5 (reference): gradient clipping chained before Adam."""

import jax
import jax.numpy as jnp
import optax
from typing import NamedTuple


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


class AdamState(NamedTuple):
    count: jax.Array
    mu: dict
    nu: dict


def _adam(learning_rate, b1=0.9, b2=0.999, eps=1e-8):
    def init(params):
        zeros = jax.tree.map(jnp.zeros_like, params)
        return AdamState(jnp.zeros([], jnp.int32), zeros, jax.tree.map(jnp.zeros_like, params))

    def update(grads, state, params=None):
        count = state.count + 1
        mu = jax.tree.map(lambda m, g: (1 - b1) * g + b1 * m, state.mu, grads)
        nu = jax.tree.map(lambda v, g: (1 - b2) * g**2 + b2 * v, state.nu, grads)
        c1 = 1 - b1 ** count.astype(jnp.float32)
        c2 = 1 - b2 ** count.astype(jnp.float32)
        updates = jax.tree.map(
            lambda m, v: -learning_rate * ((m / c1) / (jnp.sqrt(v / c2) + eps)), mu, nu
        )
        return updates, AdamState(count, mu, nu)

    return optax.GradientTransformation(init, update)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(optax.clip_by_global_norm(max_norm), _adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
