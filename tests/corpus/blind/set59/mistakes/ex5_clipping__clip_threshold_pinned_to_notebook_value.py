# BLIND-SET: 59
# EXERCISE: ex5
# WHAT: make_optimizer clips to a module constant, MAX_NORM = 1.0, instead of its max_norm argument; the constant was pinned to compare numbers with the lesson notebook. With max_norm = 1.0, the default, it is bit-identical. Other values differ. The first update is off by 5e-3 at (lr, max_norm) = (3e-2, 0.5) and by 3.8e-3 at (1e-2, 5). At (1e-3, 100) it is off by 6e-4 on the first step and on every step after the x5000 spike. Final Adam states are off by 1e-3 to 0.09. make_train_step is right: bit-identical with the reference optimizer. With the file's own optimizer, the params after one step differ by up to 3.8e-3 at (1e-2, 5) and 5e-4 at (1e-3, 0.1).
# SHOULD-SAY: make_optimizer ignores its max_norm argument and always clips to the module constant MAX_NORM = 1.0, so it is right only for max_norm = 1.0. Pass max_norm to optax.clip_by_global_norm.
"""Exercise 5: gradient clipping in an optax chain."""

import jax
import jax.numpy as jnp
import optax

DEBUG = False
# pinned while I compared my update numbers with the lesson notebook's
MAX_NORM = 1.0
_opt_log = []   # (learning_rate, max_norm) of every optimizer built


def _debug_norm():
    """An identity transform that prints the global norm of the updates passing through."""

    def update_fn(updates, state, params=None):
        if DEBUG:
            jax.debug.print("global norm after clip: {n}", n=optax.tree.norm(updates))
        return updates, state

    return optax.GradientTransformation(lambda params: optax.EmptyState(), update_fn)

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


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to max_norm, then Adam."""
    _opt_log.append((learning_rate, max_norm))
    chain = [optax.clip_by_global_norm(MAX_NORM), optax.adam(learning_rate)]
    if DEBUG:
        chain.insert(1, _debug_norm())
    return optax.chain(*chain)


def make_train_step(optimizer):
    """A jitted training step that updates params through optimizer."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        if DEBUG:
            jax.debug.print("loss {l}", l=loss)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
