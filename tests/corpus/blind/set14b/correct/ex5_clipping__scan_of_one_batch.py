# BLIND-SET: 14
# EXERCISE: ex5
# WHAT: the training step runs the update as a jax.lax.scan over a stack holding the single batch (x[None], y[None]), carrying (params, opt_state) and returning the one scanned loss; make_optimizer builds the clip-then-Adam chain from a tuple of transformations.
# SHOULD-SAY: Full marks: the optimizer's updates equal clip_by_global_norm followed by Adam for every learning_rate / max_norm, including after a gradient-norm spike; one step gives the right new params, new optimizer state and the loss at the incoming params, uses the optimizer it is given and is jitted.
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
    stages = (
        optax.clip_by_global_norm(max_norm),  # 1. cap the global gradient norm
        optax.adam(learning_rate),  # 2. Adam on the clipped gradient
    )
    return optax.chain(*stages)


def make_train_step(optimizer):
    """Build a jitted training step for ``optimizer``."""

    def one_update(carry, batch):
        params, opt_state = carry
        xb, yb = batch
        loss, grads = jax.value_and_grad(loss_fn)(params, xb, yb)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return (optax.apply_updates(params, updates), opt_state), loss

    @jax.jit
    def step(params, opt_state, x, y):
        # A scan over a stack of one batch: the same code would take k micro-steps.
        (params, opt_state), losses = jax.lax.scan(one_update, (params, opt_state), (x[None], y[None]))
        return params, opt_state, losses[0]

    return step
