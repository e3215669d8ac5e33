# BLIND-SET: 45
# EXERCISE: ex5
# WHAT: make_train_step returns a wrapper that keeps the optimizer state in its own closure (R-style state with <<-): the opt_state argument is used only on the first call and ignored afterwards, so calling the step again from a given state continues from whatever state the previous call left, and the returned params and state differ from one update at the incoming state; the wrapper itself is a plain Python function around a jitted core.
# SHOULD-SAY: Your step ignores the opt_state it is given after the first call: it keeps its own copy in a closure and carries on from that, so the update is not computed from the incoming state (and calling it twice with the same inputs gives different results). Make step a pure jitted function that uses the opt_state argument and returns the new state; let the caller thread it.
"""Exercise 5: gradient clipping in an optax chain."""

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
    """Clip the global gradient norm to max_norm, then Adam."""
    stages = [optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)]
    return optax.chain(*stages)


def make_train_step(optimizer):
    """A step that remembers its own optimizer state between calls."""

    @jax.jit
    def _core(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    env = {"opt_state": None}  # like an R closure environment

    def step(params, opt_state, x, y):
        if env["opt_state"] is None:
            env["opt_state"] = opt_state  # first call: take the state we were given
        new_params, new_state, loss = _core(params, env["opt_state"], x, y)
        env["opt_state"] = new_state      # opt_state <<- new_state
        return new_params, new_state, loss

    return step
