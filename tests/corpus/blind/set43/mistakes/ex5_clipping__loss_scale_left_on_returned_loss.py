# BLIND-SET: 43
# EXERCISE: ex5
# WHAT: the step uses static loss scaling: value_and_grad of loss_fn * 2**12, with the gradients divided by 2**12 before the optimizer (exact, so new params and state are right), but it returns the scaled loss value, so the reported loss is 4096 times the loss at the incoming params.
# SHOULD-SAY: the loss returned by the step is 4096x too large: it is the loss-scaled value. Divide it by the loss scale too (or return loss_fn's value); in float32 the loss scaling is not needed at all.
"""Exercise 5: gradient clipping in an optax chain, with static loss scaling.

The step is written the mixed-precision way, with a loss scale that keeps small
gradients out of float16's subnormal range; in float32 it is exact (a power of
two), so it costs nothing and the code is ready for half precision.
"""

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


LOSS_SCALE = 2.0**12


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def _scaled_loss(params, x, y):
    return loss_fn(params, x, y) * LOSS_SCALE


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        scaled_loss, scaled_grads = jax.value_and_grad(_scaled_loss)(params, x, y)
        grads = jax.tree.map(lambda g: g / LOSS_SCALE, scaled_grads)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, scaled_loss

    return step
