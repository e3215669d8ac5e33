# BLIND-SET: correct
# EXERCISE: ex5
# WHAT: Adam is spelled out as a nested optax.chain(scale_by_adam(0.9, 0.999, 1e-8), scale(-learning_rate)) placed after clip_by_global_norm, which is numerically the same as optax.adam(learning_rate); the step calls optimizer.update without params (Adam does not need them).
# SHOULD-SAY: full marks
"""Exercise 5 (alternative solution): gradient clipping chained before Adam."""

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
    """Clip, then Adam spelled out as scale_by_adam followed by a scale of -learning_rate."""
    adam = optax.chain(
        optax.scale_by_adam(b1=0.9, b2=0.999, eps=1e-8),
        optax.scale(-learning_rate),
    )
    return optax.chain(optax.clip_by_global_norm(max_norm), adam)


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        value_and_grad_fn = jax.value_and_grad(loss_fn)
        loss, grads = value_and_grad_fn(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state)
        params = optax.apply_updates(params, updates)
        return params, opt_state, loss

    return step
