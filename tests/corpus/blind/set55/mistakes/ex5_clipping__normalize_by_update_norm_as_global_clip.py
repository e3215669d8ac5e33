# BLIND-SET: 55
# EXERCISE: ex5
# WHAT: optax.normalize_by_update_norm(scale_factor=max_norm) is used as if it were a global-norm clip; it rescales EVERY gradient to norm max_norm (dividing by norm + eps), also the small ones, so Adam's moments see rescaled small gradients; because Adam is nearly scale-invariant the first steps match, but the updates differ (by ~1e-3 at lr 1e-3, ~4e-2 at lr 3e-2) from the first step whose gradient norm differs from the earlier ones (a 1e-3-scaled gradient in my check) onward.
# SHOULD-SAY: normalize_by_update_norm always rescales the gradient to the given norm; clipping only scales down gradients whose global norm exceeds max_norm. Use optax.clip_by_global_norm(max_norm) before optax.adam(learning_rate).
"""Exercise 5: gradient clipping in an optax chain."""

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
    # keep the global gradient norm at max_norm, then Adam
    return optax.chain(
        optax.normalize_by_update_norm(scale_factor=max_norm),
        optax.adam(learning_rate),
    )


def make_train_step(optimizer):
    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
        return params, opt_state, loss

    return step
