"""The hand-written clip's norm sums the squares of jax.tree.leaves(updates)[1:], a slice that starts one late:
the first leaf (layer1's bias) is left out of the norm, so the spike is scaled by a slightly larger factor than
max_norm / norm.
"""

import jax
import jax.numpy as jnp
import optax

EXPECT = {"check": "ex5.chain", "mistake": "ex5.clip_norm_missing_leaves", "hint": "every leaf", "max_failing": 2,
          "also": ["ex5.hyperparams"]}


def _clip_global_norm(max_norm):
    """Scale the whole gradient tree down to global norm max_norm when it is above it."""

    def init_fn(params):
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        leaves = jax.tree.leaves(updates)
        norm = jnp.sqrt(sum(jnp.sum(g ** 2) for g in leaves[1:]))
        scale = jnp.minimum(1.0, max_norm / norm)
        return jax.tree.map(lambda g: g * scale, updates), state

    return optax.GradientTransformation(init_fn, update_fn)


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
    return optax.chain(_clip_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
