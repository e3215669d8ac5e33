# BLIND-SET: 39
# EXERCISE: ex5
# WHAT: Clipping is a hand-written optax.GradientTransformationExtraArgs that takes the squared global norm with optax.tree_utils.tree_norm(updates, squared=True), tests it correctly against max_norm**2, but scales by max_norm / squared_norm instead of max_norm / norm. Gradients under the threshold pass unchanged; a gradient above it is scaled to norm max_norm**2 / norm (far below max_norm for a spike), so every Adam update from the first clipped step on differs from clip_by_global_norm followed by Adam.
# SHOULD-SAY: Your clipping shrinks large gradients too much: you divide max_norm by the squared global norm (tree_norm(..., squared=True)) rather than by the norm, so a clipped gradient ends up with norm max_norm**2 / norm instead of max_norm. Take the square root before dividing, or use optax.clip_by_global_norm(max_norm) in the chain.
"""Exercise 5: a hand-written global-norm clip (extra-args transform) before Adam."""

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


def _clip_global_norm(max_norm):
    """Scale the whole update tree down when its global L2 norm exceeds max_norm."""

    def init_fn(params):
        del params
        return optax.EmptyState()

    def update_fn(updates, state, params=None, **extra_args):
        del params, extra_args
        sq_norm = optax.tree_utils.tree_norm(updates, squared=True)  # no sqrt needed for the test
        scale = jnp.where(sq_norm > max_norm**2, max_norm / sq_norm, 1.0)
        return optax.tree_utils.tree_scale(scale, updates), state

    return optax.GradientTransformationExtraArgs(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Global-norm clipping, then Adam."""
    return optax.chain(_clip_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """Build a jitted training step for ``optimizer``."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
