# BLIND-SET: 50
# EXERCISE: ex5
# WHAT: Correct. make_optimizer chains a hand-written GradientTransformation before optax.adam(learning_rate). It computes the global norm as the square root of summed per-leaf vdots and multiplies every leaf by jnp.where(norm < max_norm, 1, max_norm / norm); its state is EmptyState, so the optimizer state has the reference's structure. Zero, tiny, huge (even overflowing) gradients, norms exactly at max_norm, any max_norm or learning_rate (including 0) and any params pytree give the same updates as clip_by_global_norm + adam. make_train_step uses a pre-built value_and_grad, adds the updates with tree.map and jits with functools.partial.
# SHOULD-SAY: Nothing to fix: full marks for ex5.
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
def _global_norm_clip(max_norm):
    """Scale all leaves together so the global L2 norm does not exceed max_norm."""

    def init_fn(params):
        del params
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        del params
        leaves = jax.tree_util.tree_leaves(updates)
        sq = sum((jnp.vdot(leaf, leaf).real for leaf in leaves), jnp.zeros((), jnp.float32))
        norm = jnp.sqrt(sq)
        factor = jnp.where(norm < max_norm, jnp.ones_like(norm), max_norm / norm)
        scaled = jax.tree_util.tree_map(lambda leaf: (leaf * factor).astype(leaf.dtype), updates)
        return scaled, state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Global-norm clipping (hand-written), then Adam."""
    return optax.chain(_global_norm_clip(max_norm), optax.adam(learning_rate))


_loss_and_grads = jax.value_and_grad(loss_fn)


def _step(optimizer, params, opt_state, x, y):
    loss, grads = _loss_and_grads(params, x, y)
    updates, new_state = optimizer.update(grads, opt_state, params)
    new_params = jax.tree_util.tree_map(lambda p, u: (p + u).astype(p.dtype), params, updates)
    return new_params, new_state, loss


def make_train_step(optimizer):
    """A jitted step(params, opt_state, x, y) -> (new_params, new_opt_state, loss)."""
    return jax.jit(functools.partial(_step, optimizer))
