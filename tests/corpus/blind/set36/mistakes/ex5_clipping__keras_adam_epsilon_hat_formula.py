# BLIND-SET: 36
# EXERCISE: ex5
# WHAT: Adam is hand-written the way TF/Keras implement it: the bias corrections are folded into the step size (lr_t = lr*sqrt(1-b2^t)/(1-b1^t)) and epsilon is added to sqrt(v) before correction, which equals optax's Adam with epsilon/sqrt(1-b2^t) (~30x larger at step 1): updates of small-gradient elements differ, and the optimizer state has a different structure.
# SHOULD-SAY: The Adam updates differ from optax.adam: the TF/Keras formula adds epsilon to the uncorrected sqrt(v) (the 'epsilon hat' form), which is not numerically equal to optax's Adam, and the state is not optax's. Use optax.adam(learning_rate) after optax.clip_by_global_norm(max_norm).
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


def keras_adam(learning_rate, beta_1=0.9, beta_2=0.999, epsilon=1e-8):
    """Adam as tf.keras.optimizers.Adam computes it (bias correction folded into lr_t)."""

    def init_fn(params):
        zeros = jax.tree.map(jnp.zeros_like, params)
        return (jnp.zeros([], jnp.int32), zeros, jax.tree.map(jnp.zeros_like, params))

    def update_fn(updates, state, params=None):
        count, m, v = state
        count = count + 1
        m = jax.tree.map(lambda m, g: beta_1 * m + (1 - beta_1) * g, m, updates)
        v = jax.tree.map(lambda v, g: beta_2 * v + (1 - beta_2) * g * g, v, updates)
        t = count.astype(jnp.float32)
        lr_t = learning_rate * jnp.sqrt(1 - beta_2**t) / (1 - beta_1**t)
        new_updates = jax.tree.map(lambda m, v: -lr_t * m / (jnp.sqrt(v) + epsilon), m, v)
        return new_updates, (count, m, v)

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(optax.clip_by_global_norm(max_norm), keras_adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
