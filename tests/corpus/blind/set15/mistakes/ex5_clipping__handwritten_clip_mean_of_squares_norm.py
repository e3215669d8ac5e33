# BLIND-SET: 15
# EXERCISE: ex5
# WHAT: make_optimizer chains a hand-written clipping transform whose "global norm" is sqrt(sum over leaves of the MEAN of squares) instead of the sum of squares, so it underestimates the norm and clips too little (often not at all).
# SHOULD-SAY: The chain order (clip, then Adam) and make_train_step are right, but the hand-written clip computes the wrong norm: averaging the squares inside each leaf divides each leaf's contribution by its size, so the measured norm is far below the true global L2 norm and gradients that should be scaled down to max_norm pass through (visible on the norm spike: updates differ from clip_by_global_norm + Adam). Sum the squares of every element over all leaves (optax.global_norm) before the square root, or use optax.clip_by_global_norm.
"""Exercise 5: gradient clipping chained before Adam."""

import jax
import jax.numpy as jnp
import optax


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def _clip_global_norm(max_norm):
    """Scale the whole gradient down when its global norm exceeds max_norm."""

    def init_fn(params):
        del params
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        del params
        norm = jnp.sqrt(sum(jnp.mean(g**2) for g in jax.tree.leaves(updates)))
        scale = jnp.minimum(1.0, max_norm / norm)
        return jax.tree.map(lambda g: g * scale, updates), state

    return optax.GradientTransformation(init_fn, update_fn)


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

