# BLIND-SET: 17
# EXERCISE: ex5
# WHAT: the train step differentiates and returns loss_fn / log(10) ("normalised" cross-entropy that starts near 1 for a random model): the returned loss is 0.434x the lesson's loss and the optimizer gets gradients 0.434x too small; when the gradient norm is far above max_norm clipping hides this, otherwise the Adam moments and the new params differ
# SHOULD-SAY: make_optimizer is right and the step is jitted, uses the optimizer it is given and returns the pre-update loss, but it optimises a rescaled objective: the reported loss is not the lesson's mean cross-entropy and the gradients (hence the clipping decision and the Adam state) are scaled by 1/ln 10; take value_and_grad of loss_fn itself and report that loss
"""Exercise 5: gradient clipping in an optax chain."""

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



LOG_NUM_CLASSES = jnp.log(10.0)  # cross-entropy of a uniform guess


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """An optax optimizer that clips, then applies Adam."""
    clip = optax.clip_by_global_norm(max_norm)
    adam = optax.adam(learning_rate)
    return optax.chain(clip, adam)


def make_train_step(optimizer):
    """Build a jitted training step for ``optimizer``."""

    def normalised_loss(params, x, y):
        # 1.0 == chance level, easier to read in the training log
        return loss_fn(params, x, y) / LOG_NUM_CLASSES

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(normalised_loss)(params, x, y)
        updates, new_state = optimizer.update(grads, opt_state, params)
        new_params = optax.apply_updates(params, updates)
        return new_params, new_state, loss

    return step
