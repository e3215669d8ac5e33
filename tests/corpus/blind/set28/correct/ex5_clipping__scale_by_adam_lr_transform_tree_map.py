# BLIND-SET: 28
# EXERCISE: ex5
# WHAT: Correct rewrite: the chain spelled out as clip_by_global_norm, scale_by_adam, scale_by_learning_rate (numerically Adam); the step is jax.jit of a nested function and adds updates with jax.tree.map.
# SHOULD-SAY: Nothing to fix: clipping before Adam, new params and state, and the pre-update loss are all right.
"""Exercise 5: gradient clipping in an optax chain (rewritten)."""

import jax
import jax.numpy as jnp
import optax


def forward(params, x):
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    return optax.chain(
        optax.clip_by_global_norm(max_norm),
        optax.scale_by_adam(),
        optax.scale_by_learning_rate(learning_rate),
    )


def make_train_step(optimizer):
    def _step(params, opt_state, x, y):
        value, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, new_state = optimizer.update(grads, opt_state, params)
        new_params = jax.tree.map(lambda p, u: p + u, params, updates)
        return new_params, new_state, value

    return jax.jit(_step)
