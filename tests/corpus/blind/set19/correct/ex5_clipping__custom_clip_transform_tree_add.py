# BLIND-SET: 19
# EXERCISE: ex5
# WHAT: clipping written as its own GradientTransformation (hand-computed root of summed squares + jnp.minimum scale) chained before optax.adam; the step is a jitted closure built with functools.partial that applies updates with jax.tree.map(jnp.add)
# SHOULD-SAY: full marks
"""Exercise 5: gradient clipping in an optax chain."""

import functools

import jax
import jax.numpy as jnp
import optax

# --- Given: the lesson's model and loss ----------------------------------------


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


# --- Your code ----------------------------------------------------------------


def _clip_to_global_norm(max_norm):
    def init_fn(_params):
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        norm = jnp.sqrt(sum(jnp.sum(jnp.square(u)) for u in jax.tree.leaves(updates)))
        factor = jnp.minimum(1.0, max_norm / jnp.maximum(norm, 1e-30))
        return jax.tree.map(lambda u: u * factor.astype(u.dtype), updates), state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """An optax optimizer that clips, then applies Adam."""
    return optax.chain(_clip_to_global_norm(max_norm), optax.adam(learning_rate=learning_rate))


def _step(optimizer, params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    new_params = jax.tree.map(jnp.add, params, updates)
    return new_params, opt_state, loss


def make_train_step(optimizer):
    """Build a jitted training step for ``optimizer``."""
    return jax.jit(functools.partial(_step, optimizer))
