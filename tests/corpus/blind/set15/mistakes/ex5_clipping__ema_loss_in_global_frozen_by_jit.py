# BLIND-SET: 15
# EXERCISE: ex5
# WHAT: the jitted step keeps a "smoothed" loss for logging in a module-level global (_loss_ema = 0.9 * _loss_ema + 0.1 * loss) and returns it; under jax.jit the global is read once at trace time, so the step returns 0.1 * loss, and any later trace trips over the leaked tracer left in the global.
# SHOULD-SAY: make_optimizer is right and the new params and optimizer state from one step are right, but the returned loss is not the loss at the incoming params: it is a Python-side running average that jit froze at trace time (0.9 * 0.0 + 0.1 * loss, i.e. a tenth of the loss), and building or retracing another step fails with an UnexpectedTracerError because the global now holds a tracer. Return the loss from jax.value_and_grad directly; keep any smoothing for logging outside the jitted step, on concrete values.
"""Exercise 5: gradient clipping chained before Adam."""

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


_loss_ema = 0.0  # smoothed loss for nicer training logs


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        global _loss_ema
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        _loss_ema = 0.9 * _loss_ema + 0.1 * loss
        return optax.apply_updates(params, updates), opt_state, _loss_ema

    return step
