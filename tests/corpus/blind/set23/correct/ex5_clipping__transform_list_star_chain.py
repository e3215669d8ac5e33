# BLIND-SET: 23
# EXERCISE: ex5
# WHAT: correct rewrite: the chain is built from a list of transforms with keyword arguments and optax.chain(*...); the step is a plain function wrapped with jax.jit at return, updates applied with jax.tree.map(jnp.add)
# SHOULD-SAY: full marks
"""Exercise 5: clip-then-Adam, chain built from a list."""

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
    pipeline = [
        optax.clip_by_global_norm(max_norm=max_norm),
        optax.adam(learning_rate=learning_rate),
    ]
    return optax.chain(*pipeline)


def make_train_step(optimizer):
    loss_and_grad = jax.value_and_grad(loss_fn)

    def _step(params, opt_state, x, y):
        loss, grads = loss_and_grad(params, x, y)
        updates, new_state = optimizer.update(grads, opt_state, params=params)
        new_params = jax.tree.map(jnp.add, params, updates)
        return new_params, new_state, loss

    return jax.jit(_step)
