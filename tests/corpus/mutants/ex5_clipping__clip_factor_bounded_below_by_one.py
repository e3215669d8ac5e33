"""The clip is written by hand with jnp.clip bounding the factor max_norm / norm on the wrong side: jnp.clip(r,
1.0, None) is max(1, r), so gradients above max_norm pass unshrunk and those below it are scaled up to max_norm.
"""

import jax
import jax.numpy as jnp
import optax

EXPECT = {"check": "ex5.chain", "mistake": "ex5.clip_condition", "hint": "rescale g to max_norm exactly when", "max_failing": 2,
          "also": ["ex5.hyperparams"]}


def _clip_global_norm(max_norm):
    """Scale the whole gradient tree down to global norm max_norm when it is above it."""

    def init_fn(params):
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        norm = optax.global_norm(updates)
        scale = jnp.clip(max_norm / norm, 1.0, None)  # bounded at 1
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
