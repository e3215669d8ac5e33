# BLIND-SET: 12
# EXERCISE: ex5
# WHAT: Clipping is wrapped in optax.masked with an all-True mask (so it sees every leaf) before optax.adam; the step is a plain nested function returned through jax.jit(step).
# SHOULD-SAY: Everything correct: with every leaf selected, the masked clip computes the same global norm, so updates equal clip_by_global_norm(max_norm) then adam(learning_rate) (only the state's container differs); the step is jitted, uses the optimizer it is given, returns new params, new state and the loss at the incoming params.
"""Exercise 5: gradient clipping in an optax chain (masked clip)."""

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


def _all_leaves(params):
    return jax.tree.map(lambda _: True, params)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm (over every leaf) to `max_norm`, then Adam."""
    clip = optax.masked(optax.clip_by_global_norm(max_norm), _all_leaves)
    return optax.chain(clip, optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, new_state = optimizer.update(grads, opt_state, params)
        new_params = optax.apply_updates(params, updates)
        return new_params, new_state, loss

    return jax.jit(step)
