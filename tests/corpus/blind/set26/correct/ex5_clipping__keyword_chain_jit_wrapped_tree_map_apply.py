# BLIND-SET: 26
# EXERCISE: ex5
# WHAT: correct rewrite: the chain is built from named transformations with keyword arguments (clip_by_global_norm(max_norm=...), adam(learning_rate=...)); the step is a plain function wrapped with jax.jit on return, uses a prebuilt value_and_grad and adds the updates with jax.tree.map.
# SHOULD-SAY: nothing to fix: clipping then Adam for any learning_rate and max_norm, and a jitted step that returns the new params, the new state and the loss at the incoming params, correct over several steps in a row.
"""Exercise 5: clip the global norm, then Adam, in one optax chain."""

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
    """Global-norm clipping first, Adam second."""
    clip = optax.clip_by_global_norm(max_norm=max_norm)
    adam = optax.adam(learning_rate=learning_rate)
    return optax.chain(clip, adam)


def make_train_step(optimizer):
    """Returns a jitted step(params, opt_state, x, y) -> (params, opt_state, loss)."""
    loss_and_grads = jax.value_and_grad(loss_fn)

    def step(params, opt_state, x, y):
        loss, grads = loss_and_grads(params, x, y)
        updates, new_state = optimizer.update(grads, opt_state, params)
        new_params = jax.tree.map(lambda p, u: p + u, params, updates)
        return new_params, new_state, loss

    return jax.jit(step)
