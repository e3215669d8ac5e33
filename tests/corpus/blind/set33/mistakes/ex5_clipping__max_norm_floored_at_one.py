# BLIND-SET: 33
# EXERCISE: ex5
# WHAT: make_optimizer sanitises the threshold with max(float(max_norm), 1.0), so any max_norm below 1 (e.g. 0.5 or 0.1) clips at 1.0 instead: updates differ from clip_by_global_norm(max_norm) + adam whenever the gradient norm exceeds max_norm; max_norm >= 1 is unaffected.
# SHOULD-SAY: The guard against non-positive thresholds uses the wrong bound and overrides legitimate small values. Pass max_norm through unchanged (reject only max_norm <= 0 if you want a check).
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
    max_norm = max(float(max_norm), 1.0)  # guard against zero / negative thresholds
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
