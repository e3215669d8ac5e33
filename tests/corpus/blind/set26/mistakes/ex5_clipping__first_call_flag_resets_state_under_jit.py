# BLIND-SET: 26
# EXERCISE: ex5
# WHAT: the jitted step re-initialises the optimizer state "on the first call" behind a Python flag in the closure; under jit the flag is read only while tracing, so the compiled step calls optimizer.init(params) on every call: the first step is right, but from the second step on Adam restarts (count 1, fresh moments) and the new params and state are wrong.
# SHOULD-SAY: several steps in a row go wrong: the step ignores the incoming opt_state and restarts Adam on every call, because the 'first call' Python flag was evaluated once at trace time and the init was compiled into the step; use the opt_state that is passed in and never initialise inside the jitted step.
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

    first_call = [True]

    @jax.jit
    def step(params, opt_state, x, y):
        if first_call[0]:  # make sure the state belongs to this optimizer
            opt_state = optimizer.init(params)
            first_call[0] = False
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
