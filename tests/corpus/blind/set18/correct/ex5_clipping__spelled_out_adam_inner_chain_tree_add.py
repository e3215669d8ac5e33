# BLIND-SET: 18
# EXERCISE: ex5
# WHAT: Adam is spelled out as an inner chain of optax.scale_by_adam (explicit defaults) and optax.scale_by_learning_rate, nested after optax.clip_by_global_norm so the state has the same layout as clip + optax.adam; the step is a closure jitted through functools.partial, unpacks value_and_grad's result by index and adds the updates with jax.tree.map(jnp.add, ...).
# SHOULD-SAY: full marks
"""Exercise 5: gradient clipping in an optax chain."""

import functools

import jax
import jax.numpy as jnp
import optax

# --- Given: the lesson's model and loss ----------------------------------------


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


# --- Your code ----------------------------------------------------------------


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """An optax optimizer that clips, then applies Adam."""
    adam = optax.chain(
        optax.scale_by_adam(b1=0.9, b2=0.999, eps=1e-8, eps_root=0.0),
        optax.scale_by_learning_rate(learning_rate),
    )
    return optax.chain(optax.clip_by_global_norm(max_norm), adam)


def _step(optimizer, params, opt_state, x, y):
    value_grad = jax.value_and_grad(loss_fn)(params, x, y)
    loss, grads = value_grad[0], value_grad[1]
    updates, next_state = optimizer.update(grads, opt_state, params)
    next_params = jax.tree.map(jnp.add, params, updates)
    return next_params, next_state, loss


def make_train_step(optimizer):
    """Build a jitted training step for ``optimizer``."""
    return jax.jit(functools.partial(_step, optimizer))
