# BLIND-SET: 52
# EXERCISE: ex5
# WHAT: correct. make_optimizer builds optax.chain(*starmap(lambda make, arg: make(arg), ((optax.clip_by_global_norm, max_norm), (optax.adam, learning_rate)))), i.e. clip then Adam; make_train_step is jax.jit of one nested-lambda expression that unpacks value_and_grad and optimizer.update with * and returns (apply_updates(params, updates), new_state, loss at the incoming params).
# SHOULD-SAY: Nothing to fix: full marks for ex5.
"""Exercise 5: gradient clipping in an optax chain (starmap factories, lambda step)."""

from itertools import starmap

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


# --- Your code ----------------------------------------------------------------


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Global-norm clipping, then Adam."""
    return optax.chain(*starmap(lambda make, arg: make(arg), ((optax.clip_by_global_norm, max_norm), (optax.adam, learning_rate))))


def make_train_step(optimizer):
    """A jitted step: loss and grads at the incoming params, update through optimizer."""
    value_and_grad = jax.value_and_grad(loss_fn)
    return jax.jit(
        lambda params, opt_state, x, y: (
            lambda loss, grads: (
                lambda updates, new_state: (optax.apply_updates(params, updates), new_state, loss)
            )(*optimizer.update(grads, opt_state, params))
        )(*value_and_grad(params, x, y))
    )
