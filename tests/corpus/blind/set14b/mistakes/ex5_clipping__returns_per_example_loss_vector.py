# BLIND-SET: 14
# EXERCISE: ex5
# WHAT: the training step differentiates the mean loss with has_aux but returns the vector of per-example losses (kept "for logging") instead of the scalar mean loss.
# SHOULD-SAY: make_optimizer is right, and the step's new params and optimizer state are right (it is jitted and uses the given optimizer), but the third return value must be the scalar mean loss at the incoming params; it returns a (B,) array of per-example losses. Return jnp.mean(losses) (the value that was differentiated).
"""Exercise 5: gradient clipping in an optax chain."""

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
    """An optax optimizer that clips, then applies Adam."""
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def per_example_losses(params, x, y):
    """Cross-entropy of every example in the batch, shape (B,)."""
    logits = forward(params, x)
    return -jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1)


def make_train_step(optimizer):
    """Build a jitted training step for ``optimizer``."""

    @jax.jit
    def step(params, opt_state, x, y):
        def objective(p):
            losses = per_example_losses(p, x, y)
            return jnp.mean(losses), losses

        (_, losses), grads = jax.value_and_grad(objective, has_aux=True)(params)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        # keep every example's loss so the training log can show the spread
        return optax.apply_updates(params, updates), opt_state, losses

    return step
