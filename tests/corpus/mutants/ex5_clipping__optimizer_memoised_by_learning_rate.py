"""make_optimizer memoises its chain with functools.lru_cache on a helper that takes the learning rate only; the
max_norm of the first call for each learning rate sticks.
"""

import functools


import jax
import jax.numpy as jnp
import optax

EXPECT = {"check": "ex5.hyperparams", "mistake": "ex5.optimizer_cached", "hint": "a cache keyed on some of them", "max_failing": 1}



def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


_MAX_NORM = {}


@functools.lru_cache(maxsize=None)
def _chain(learning_rate):
    return optax.chain(optax.clip_by_global_norm(_MAX_NORM[learning_rate]), optax.adam(learning_rate))


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    _MAX_NORM.setdefault(learning_rate, max_norm)
    return _chain(learning_rate)


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
