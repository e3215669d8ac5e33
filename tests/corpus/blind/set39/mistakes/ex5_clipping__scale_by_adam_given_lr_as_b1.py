# BLIND-SET: 39
# EXERCISE: ex5
# WHAT: make_optimizer builds Adam from its parts as optax.chain(clip_by_global_norm(max_norm), optax.scale_by_adam(learning_rate), optax.scale_by_learning_rate(learning_rate)); scale_by_adam's first positional parameter is b1, so the first-moment decay becomes learning_rate (e.g. 1e-3) instead of 0.9, i.e. almost no momentum. The first update still equals clip+Adam (bias correction cancels b1 at step 1); every later update differs. make_train_step is correct.
# SHOULD-SAY: From the second step on your updates are not Adam's: you pass learning_rate positionally to optax.scale_by_adam, where the first parameter is b1 (the momentum decay), so Adam runs with b1 = learning_rate and effectively no momentum. Call optax.scale_by_adam() with its defaults (b1=0.9, b2=0.999, eps=1e-8) and give the learning rate only to scale_by_learning_rate, or just use optax.adam(learning_rate).
"""Exercise 5: clipping then Adam, assembled from optax's scale_by_* pieces."""

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
    """Global-norm clipping, then Adam's scaling, then the learning rate."""
    return optax.chain(
        optax.clip_by_global_norm(max_norm),
        optax.scale_by_adam(learning_rate),
        optax.scale_by_learning_rate(learning_rate),
    )


def make_train_step(optimizer):
    """Build a jitted training step for ``optimizer``."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
