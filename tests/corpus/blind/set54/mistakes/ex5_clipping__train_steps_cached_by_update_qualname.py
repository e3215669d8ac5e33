# BLIND-SET: 54
# EXERCISE: ex5
# WHAT: make_train_step caches jitted steps in a module dict keyed by the update function's module and __qualname__ ("a stable name for the optimizer"). Every optax.chain has the same qualname (chain.<locals>.update_fn), so after the first make_train_step call every other optimizer, e.g. make_optimizer(1e-1, 0.5) after make_optimizer(), gets the first optimizer's step back, and the new params and opt_state are computed with the first optimizer's learning rate and max_norm.
# SHOULD-SAY: Your step cache is keyed by the update function's name, which is the same for every optax.chain, so make_train_step ignores the optimizer it is given after the first call. Build a new jitted step for each optimizer (jit's own cache is enough), or key the cache on the optimizer object itself.
"""Exercise 5: gradient clipping before Adam; one compiled step per optimizer."""

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
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


_loss_and_grads = jax.value_and_grad(loss_fn)
_STEP_CACHE = {}


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""
    name = (optimizer.update.__module__, optimizer.update.__qualname__)
    cached = _STEP_CACHE.get(name)
    if cached is not None:
        return cached
    update = optimizer.update  # bind once, skip the attribute lookup when tracing

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = _loss_and_grads(params, x, y)
        updates, opt_state = update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    _STEP_CACHE[name] = step
    return step
