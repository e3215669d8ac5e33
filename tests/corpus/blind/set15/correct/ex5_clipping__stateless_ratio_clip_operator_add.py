# BLIND-SET: 15
# EXERCISE: ex5
# WHAT: make_optimizer builds the clip with optax.stateless and the identity g * max_norm / max(norm, max_norm) (equal to clipping to max_norm), chained before optax.adam; the step adds the updates to the params with jax.tree.map(operator.add, ...).
# SHOULD-SAY: All ex5 checks pass: the optimizer's updates equal clip_by_global_norm followed by Adam over a gradient sequence with a norm spike for several learning rates and max norms, and one jitted step gives the right new params, optimizer state and pre-update loss using the optimizer it is given.
"""Exercise 5: gradient clipping chained before Adam."""

import operator

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


def _global_norm(tree):
    return jnp.sqrt(sum(jnp.vdot(g, g) for g in jax.tree.leaves(tree)))


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""

    def clip(updates, params=None):
        del params
        # min(1, m / n) == m / max(n, m) for positive m and n
        factor = max_norm / jnp.maximum(_global_norm(updates), max_norm)
        return jax.tree.map(lambda g: g * factor, updates)

    return optax.chain(optax.stateless(clip), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, new_state = optimizer.update(grads, opt_state, params)
        return jax.tree.map(operator.add, params, updates), new_state, loss

    return jax.jit(step)
