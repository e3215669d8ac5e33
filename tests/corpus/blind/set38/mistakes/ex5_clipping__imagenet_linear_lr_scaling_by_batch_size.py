# BLIND-SET: 38
# EXERCISE: ex5
# WHAT: make_optimizer applies the Flax ImageNet linear scaling rule, learning_rate * batch_size / 256 with default batch_size=128, so Adam runs at half the requested learning rate and every update is exactly 0.5 times the reference's. Clipping and its place in the chain are right.
# SHOULD-SAY: Your learning rate is halved: make_optimizer rescales it by batch_size / 256 (the linear scaling rule from the Flax ImageNet example). The exercise asks for Adam at exactly the learning_rate you are given: pass it to optax.adam unchanged.
"""Exercise 5: gradient clipping in an optax chain (hyperparameters the way the Flax ImageNet example sets them)."""

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


BASE_BATCH_SIZE = 256  # the learning rate in configs is quoted for a batch of 256


def make_optimizer(learning_rate=1e-3, max_norm=1.0, batch_size=128):
    """Global-norm clipping, then Adam (linear learning-rate scaling rule for the batch size)."""
    scaled_lr = learning_rate * batch_size / BASE_BATCH_SIZE
    return optax.chain(
        optax.clip_by_global_norm(max_norm),
        optax.adam(learning_rate=scaled_lr),
    )


def make_train_step(optimizer):
    """A jitted ``step(params, opt_state, x, y) -> (params, opt_state, loss)``."""

    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, new_opt_state = optimizer.update(grads, opt_state, params)
        new_params = optax.apply_updates(params, updates)
        return new_params, new_opt_state, loss

    return jax.jit(step)
