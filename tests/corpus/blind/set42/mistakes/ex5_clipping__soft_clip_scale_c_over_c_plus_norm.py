# BLIND-SET: 42
# EXERCISE: ex5
# WHAT: make_optimizer chains a hand-written "soft" clip before optax.adam that scales the gradient by max_norm / (max_norm + ||g||) instead of min(1, max_norm / ||g||). Every gradient is shrunk, including those below max_norm (by 1/2 at ||g|| = max_norm, by about 0.95 at 0.05 * max_norm), and a spike ends slightly below max_norm, so the relative size of the steps Adam sees changes and its updates differ from clip-then-Adam (slightly on the first step, where only Adam's eps makes the shrink visible, and clearly once the gradient norms vary, e.g. around a spike). make_train_step is correct.
# SHOULD-SAY: The clip is not clip_by_global_norm: the factor max_norm / (max_norm + ||g||) rescales every gradient, even when ||g|| <= max_norm, where it must pass through unchanged, so Adam's moments and updates drift from the reference. Use optax.clip_by_global_norm(max_norm), whose factor is min(1, max_norm / ||g||), before optax.adam.
"""Exercise 5: gradient clipping in an optax chain."""

from __future__ import annotations

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


def soft_clip_by_global_norm(max_norm: float) -> optax.GradientTransformation:
    """Global-norm clipping without the kink at ||g|| = max_norm.

    The factor max_norm / (max_norm + ||g||) behaves like max_norm / ||g|| for
    large gradients (the usual clip), tends to 1 for small ones and is smooth
    everywhere, so a spike cannot push the step past max_norm.
    """

    def init_fn(params):
        del params
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        del params
        g_norm = optax.global_norm(updates)
        scale = max_norm / (max_norm + g_norm)
        return jax.tree.map(lambda g: g * scale, updates), state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm, then Adam."""
    return optax.chain(soft_clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted step: value_and_grad at the incoming params, update through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, new_opt_state = optimizer.update(grads, opt_state, params)
        new_params = optax.apply_updates(params, updates)
        return new_params, new_opt_state, loss

    return step
