# BLIND-SET: mistake
# EXERCISE: ex5
# WHAT: Clipping is a hand-written transformation that measures the global norm of `params` instead of the incoming updates, so whether and how much it clips depends on the weights, not on the gradient (called without params it never clips at all).
# SHOULD-SAY: ex5 make_optimizer updates differ from clip_by_global_norm + adam (the gradient spike is not clipped to max_norm; ordinary gradients are rescaled by max_norm/||params||); the clip computes the norm of params rather than of the updates (with params=None the norm is 0, so it never clips). The train step is right.
"""Exercise 5 (reference): gradient clipping chained before Adam."""

import jax
import jax.numpy as jnp
import optax

# optax.tree.norm is the current name; optax.global_norm is the older one.
_tree_norm = optax.tree.norm if hasattr(optax, "tree") else optax.global_norm


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def clip_by_global_norm(max_norm):
    """Scale the whole gradient so that its global L2 norm is at most `max_norm`."""

    def update_fn(updates, state, params=None):
        g_norm = _tree_norm(params)
        scale = jnp.minimum(1.0, max_norm / g_norm)
        return jax.tree.map(lambda g: g * scale, updates), state

    return optax.GradientTransformation(lambda params: optax.EmptyState(), update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
