# BLIND-SET: 50
# EXERCISE: ex5
# WHAT: make_optimizer replaces the clip with optax.identity() when max_norm >= 100 ("no gradient gets that large, skip the norm"); the state structure is unchanged (both are EmptyState). For max_norm below 100 it is exact, but with a large max_norm a gradient whose global norm exceeds it (a spike) passes unclipped into Adam, so that update and every later one differ from clip-then-Adam.
# SHOULD-SAY: For max_norm of 100 or more clipping is switched off, so a gradient spike larger than max_norm is not scaled down. Any max_norm must be honoured; always chain optax.clip_by_global_norm(max_norm) before Adam, whatever its value.
"""Exercise 5: gradient clipping in an optax chain."""

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
_NEVER_REACHED = 100.0  # lesson gradients have norms of order 1


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    if max_norm >= _NEVER_REACHED:
        # A threshold this high never triggers; don't pay for the norm.
        clip = optax.identity()
    else:
        clip = optax.clip_by_global_norm(max_norm)
    return optax.chain(clip, optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
