# BLIND-SET: 23
# EXERCISE: ex5
# WHAT: the jitted step returns a dict {'params', 'opt_state', 'loss'} instead of the tuple (params, opt_state, loss); unpacking it as `params, opt_state, loss = step(...)` yields the key strings, and indexing [0] raises KeyError; the values inside the dict are correct
# SHOULD-SAY: step must return the tuple (new_params, new_opt_state, loss); yours returns a dict, so params, opt_state, loss = step(...) gives you the strings 'params', 'opt_state', 'loss'. The numbers inside are right: return them as a tuple in that order.
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


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        new_params = optax.apply_updates(params, updates)
        return {"params": new_params, "opt_state": opt_state, "loss": loss}

    return step
