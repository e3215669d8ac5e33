# BLIND-SET: mistake
# EXERCISE: ex5
# WHAT: the jitted step implements a learning-rate warm-up with a Python global step counter, which is read only while tracing, so every call of a compiled step scales the updates by the same constant (0.1 on the first trace).
# SHOULD-SAY: ex5 step check fails: new params are off (updates scaled by a trace-time constant warm-up factor, impure Python state under jax.jit); optimizer state and loss are right; make_optimizer passes.
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


_global_step = 0
WARMUP_STEPS = 10


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        global _global_step
        _global_step += 1
        warmup = min(1.0, _global_step / WARMUP_STEPS)  # linear learning-rate warm-up
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        updates = jax.tree.map(lambda u: warmup * u, updates)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
