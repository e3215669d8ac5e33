# BLIND-SET: 14
# EXERCISE: ex5
# WHAT: make_optimizer inserts optax.centralize() (gradient centralisation, copied from a "training tricks" recipe) between the clip and Adam, so every weight matrix's gradient has its per-row mean removed before Adam.
# SHOULD-SAY: make_train_step is right and the clip comes before Adam, but the optimizer's updates do not equal clip_by_global_norm followed by Adam: optax.centralize() subtracts the mean of each weight gradient over its output axis, which changes the weight updates (biases are untouched). Remove the extra transformation: optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)).
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
    return optax.chain(
        optax.clip_by_global_norm(max_norm),
        optax.centralize(),  # gradient centralisation: faster, more stable training
        optax.adam(learning_rate),
    )


def make_train_step(optimizer):
    """Build a jitted training step for ``optimizer``."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
