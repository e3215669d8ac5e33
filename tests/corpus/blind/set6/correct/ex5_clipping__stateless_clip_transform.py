# BLIND-SET: correct
# EXERCISE: ex5
# WHAT: Global-norm clipping is written with optax.stateless (state EmptyState, as in optax's own clip) scaling every leaf by min(1, max_norm / ||g||), then chained before optax.adam; the step applies updates with jax.tree.map(jnp.add, ...).
# SHOULD-SAY: full marks
"""Exercise 5: gradient clipping before Adam, clipping written with optax.stateless."""

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
    return jnp.sqrt(sum(jnp.sum(jnp.square(leaf)) for leaf in jax.tree.leaves(tree)))


def _clip_to_global_norm(max_norm):
    """Scale the whole update so that its global L2 norm is at most `max_norm`."""

    def clip(updates, params):
        del params
        scale = jnp.minimum(1.0, max_norm / _global_norm(updates))
        return jax.tree.map(lambda g: g * scale, updates)

    return optax.stateless(clip)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(_clip_to_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return jax.tree.map(jnp.add, params, updates), opt_state, loss

    return step
