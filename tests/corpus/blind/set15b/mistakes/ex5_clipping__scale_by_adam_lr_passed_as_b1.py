# BLIND-SET: 15
# EXERCISE: ex5
# WHAT: make_optimizer spells Adam as clip_by_global_norm, scale_by_adam(learning_rate), scale(-learning_rate); scale_by_adam's first positional parameter is b1, so the learning rate becomes the first-moment decay (b1 = 1e-3, no momentum).
# SHOULD-SAY: Clipping comes first and the step size and sign are right, and the very first update from a fresh state even equals Adam's (bias correction cancels b1 at step 1), but from the second gradient on the updates differ from clip_by_global_norm + Adam: optax.scale_by_adam(learning_rate) sets b1=learning_rate (about 0.001 instead of 0.9), so the first moment is just the latest gradient. Call optax.scale_by_adam() with its defaults (or b1=0.9 by keyword), or use optax.adam(learning_rate). make_train_step is right.
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


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(
        optax.clip_by_global_norm(max_norm),
        optax.scale_by_adam(learning_rate),
        optax.scale(-learning_rate),
    )


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
