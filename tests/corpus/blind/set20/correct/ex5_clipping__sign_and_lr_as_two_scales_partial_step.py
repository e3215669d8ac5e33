# BLIND-SET: 20
# EXERCISE: ex5
# WHAT: correct: make_optimizer chains clip_by_global_norm, scale_by_adam with its defaults spelled out, scale(-1.0) and scale(learning_rate) (numerically equal to clip + adam); make_train_step is jax.jit of functools.partial(module-level step, optimizer) and applies updates with tree_map(operator.add)
# SHOULD-SAY: full marks: the updates equal clip-by-global-norm followed by Adam over any gradient sequence, and the jitted step uses the optimizer it is given, takes value_and_grad at the incoming params and returns the new params, new state and the pre-update loss

"""Exercise 5: clipping, Adam's scaling, then the step size as two scales."""

import functools
import operator

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
    """Global-norm clipping, Adam's moment scaling, then a descent step of size lr."""
    return optax.chain(
        optax.clip_by_global_norm(max_norm),
        optax.scale_by_adam(b1=0.9, b2=0.999, eps=1e-8),
        optax.scale(-1.0),
        optax.scale(learning_rate),
    )


def _train_step(optimizer, params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, new_opt_state = optimizer.update(grads, opt_state, params)
    new_params = jax.tree_util.tree_map(operator.add, params, updates)
    return new_params, new_opt_state, loss


def make_train_step(optimizer):
    """A jitted step bound to `optimizer` with functools.partial."""
    return jax.jit(functools.partial(_train_step, optimizer))
