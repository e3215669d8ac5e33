# BLIND-SET: mistake
# EXERCISE: ex5
# WHAT: the step multiplies the loss by a mixed-precision loss scale (2**10) before differentiating and divides the reported loss back, but never unscales the gradients before the optimizer (clipping) sees them.
# SHOULD-SAY: ex5 make_train_step: the reported loss is right but the gradients passed to the optimizer are 1024x too large, so the new params/state differ (clipping always fires; with a plain optimizer the step is 1024x too big).
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
        loss_scale = 2.0**10
        scaled_loss, grads = jax.value_and_grad(lambda p: loss_fn(p, x, y) * loss_scale)(params)
        loss = scaled_loss / loss_scale
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
