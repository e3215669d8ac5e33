# BLIND-SET: 19
# EXERCISE: ex5
# WHAT: a hand-written clipping transform measures the "global" norm as the sum of the per-leaf L2 norms instead of the root of the summed squares
# SHOULD-SAY: Clipping is chained before Adam and the train step is right, but your global norm adds up the leaves' norms, which overestimates the true norm, so gradients are clipped too hard or clipped when they are under max_norm; use sqrt(sum of squares over all leaves) (optax.tree.norm / optax.clip_by_global_norm).
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


# --- Your code ----------------------------------------------------------------


def _clip_global(max_norm):
    def init_fn(params):
        del params
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        del params
        total_norm = sum(jnp.linalg.norm(jnp.ravel(g)) for g in jax.tree.leaves(updates))
        factor = jnp.where(total_norm > max_norm, max_norm / total_norm, 1.0)
        return jax.tree.map(lambda g: g * factor, updates), state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """An optax optimizer that clips, then applies Adam."""
    return optax.chain(_clip_global(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """Build a jitted training step for ``optimizer``."""

    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, new_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), new_state, loss

    return jax.jit(step)
