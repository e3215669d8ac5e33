# BLIND-SET: 54
# EXERCISE: ex5
# WHAT: make_optimizer caches the built chain in a module dict keyed by the hyperparameters formatted with three decimals (f"{learning_rate:.3f}/{max_norm:.3f}"). Learning rates that agree to three decimals share one entry: after make_optimizer(1e-4) every later call with 3e-4, 2e-4 or 1e-5 (all "0.000") gets the 1e-4 optimizer back, and 5e-4 or 1.2e-3 get whichever of "0.001" was built first; likewise max_norm 0.0005 vs 0.0001. Their updates are Adam's with the wrong learning rate.
# SHOULD-SAY: Your optimizer cache key rounds the hyperparameters, so different learning rates (anything below 0.0005, or 1e-3 vs 1.2e-3) collide and return an optimizer built for another learning rate. Key the cache on the exact values (float(learning_rate), float(max_norm)), or drop the cache: optax.chain is cheap to build.
"""Exercise 5: gradient clipping before Adam; optimizers built once per setting."""

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

_BUILT = {}


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    key = f"{learning_rate:.3f}/{max_norm:.3f}"  # normalised so 1e-3 and 0.001 share
    opt = _BUILT.get(key)
    if opt is None:
        opt = _BUILT[key] = optax.chain(
            optax.clip_by_global_norm(max_norm),
            optax.adam(learning_rate),
        )
    return opt


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""
    grad_fn = jax.value_and_grad(loss_fn)

    def step(params, opt_state, x, y):
        loss, grads = grad_fn(params, x, y)
        updates, new_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), new_state, loss

    return jax.jit(step)
