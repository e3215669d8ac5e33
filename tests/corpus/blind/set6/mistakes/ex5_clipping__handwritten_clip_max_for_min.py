# BLIND-SET: mistake
# EXERCISE: ex5
# WHAT: Clipping is a hand-written transformation whose scale is jnp.maximum(1, max_norm / norm) instead of jnp.minimum: gradients above max_norm pass unchanged (the spike is not clipped) and smaller ones are scaled up to max_norm.
# SHOULD-SAY: ex5 make_optimizer updates differ from clip_by_global_norm + adam on the sequence with a norm spike: the hand-written clip uses max where min is needed, so it never scales down and inflates small gradients; the train step itself is right.
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
        del params
        g_norm = _tree_norm(updates)
        scale = jnp.maximum(1.0, max_norm / g_norm)
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
