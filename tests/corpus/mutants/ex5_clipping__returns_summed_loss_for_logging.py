"""The step updates with the mean loss's gradient but returns the batch's summed cross-entropy as its loss.

The new params and state are right; only the returned loss is B times too large.
"""

import jax
import jax.numpy as jnp
import optax

EXPECT = {"check": "ex5.step_values", "mistake": "ex5.returned_loss_other", "hint": "only the loss it returns",
          "max_failing": 1}


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
        logp = jax.nn.log_softmax(forward(params, x))
        total = -jnp.sum(jnp.take_along_axis(logp, y[:, None], axis=1))  # the batch's loss, for logging
        return optax.apply_updates(params, updates), opt_state, total

    return step
