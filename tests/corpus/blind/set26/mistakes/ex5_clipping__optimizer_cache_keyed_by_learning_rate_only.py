# BLIND-SET: 26
# EXERCISE: ex5
# WHAT: make_optimizer caches the optimizers it builds in a module dict keyed by learning_rate alone; a later call with the same learning rate but another max_norm returns the cached optimizer, which clips at the first call's max_norm, so the clipped updates are wrong (the first call of each rate is right).
# SHOULD-SAY: make_optimizer ignores max_norm when a learning rate was seen before: the cache key leaves out max_norm, so the clipping threshold is stale; build a new optax.chain on every call (it is cheap) or key the cache on (learning_rate, max_norm).
"""Exercise 5 (reference): gradient clipping chained before Adam."""

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


_optimizers = {}  # learning_rate -> optimizer, so repeated calls reuse one object


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    if learning_rate not in _optimizers:
        _optimizers[learning_rate] = optax.chain(
            optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)
        )
    return _optimizers[learning_rate]


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
