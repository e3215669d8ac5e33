# BLIND-SET: 13
# EXERCISE: ex5
# WHAT: Builds the optimizer from parts (clip_by_global_norm -> scale_by_adam -> scale(-lr)) and jits the step with jax.jit(...) applied to a named inner function that adds updates with jax.tree.map instead of optax.apply_updates.
# SHOULD-SAY: Everything is correct: the optimizer clips the global gradient norm to max_norm before Adam and is numerically equal to chain(clip_by_global_norm, adam); the step is jitted, takes loss and grads from value_and_grad at the incoming params, threads the optimizer state and returns the new params, state and pre-update loss.
"""Exercise 5 (variant): clipping then Adam, assembled from optax components."""

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


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(
        optax.clip_by_global_norm(max_norm),
        optax.scale_by_adam(b1=0.9, b2=0.999, eps=1e-8),
        optax.scale(-learning_rate),
    )


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""
    grad_fn = jax.value_and_grad(loss_fn)

    def _step(params, opt_state, x, y):
        loss, grads = grad_fn(params, x, y)
        updates, new_state = optimizer.update(grads, opt_state, params)
        new_params = jax.tree.map(lambda p, u: p + u, params, updates)
        return new_params, new_state, loss

    return jax.jit(_step)
