# BLIND-SET: 48
# EXERCISE: ex5
# WHAT: make_optimizer chains a hand-written clip before optax.adam whose "global norm" is optax.tree.max over the per-leaf L2 norms (the largest single leaf's norm), not the L2 norm over all leaves together. The norm is underestimated, so a gradient over max_norm is scaled by max_norm / largest-leaf-norm instead of max_norm / global-norm (on the lesson net about 8% too large; and a gradient whose global norm is above max_norm but whose every leaf norm is below it is not clipped at all). Adam's moments and the updates then differ from clip_by_global_norm + Adam from the first clipped step on (e.g. mu about 8% off, updates off by up to ~2% of the learning rate). make_train_step is right.
# SHOULD-SAY: Clipping must use the global L2 norm over all leaves together (sqrt of the sum of all squares), not the largest leaf norm. Use optax.clip_by_global_norm(max_norm), or compute the norm with optax.tree.norm(updates) before scaling.
"""Exercise 5: gradient clipping in an optax chain, with a hand-written clip."""

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


def _clip_to_norm(max_norm):
    """Scale the whole gradient so its norm is at most max_norm."""

    def init_fn(params):
        del params
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        del params
        leaf_norms = jax.tree.map(jnp.linalg.vector_norm, updates)
        norm = optax.tree.max(leaf_norms)
        scale = jnp.minimum(1.0, max_norm / jnp.maximum(norm, 1e-12))
        return optax.tree.scale(scale, updates), state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Global-norm clipping, then Adam."""
    return optax.chain(_clip_to_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step for optimizer."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
