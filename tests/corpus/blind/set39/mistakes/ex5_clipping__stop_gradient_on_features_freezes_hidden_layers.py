# BLIND-SET: 39
# EXERCISE: ex5
# WHAT: The training step differentiates its own loss-with-aux, which detaches the last hidden activations with jax.lax.stop_gradient (meant only for a logged feature-norm aux) and then computes the logits from the detached features. The loss value is right, but layer1 and layer2 get zero gradients: the global norm used for clipping covers layer3 only, layer1/layer2 params come back unchanged (Adam's update of a zero gradient is 0), and layer3's update differs whenever clipping is active. make_optimizer is correct.
# SHOULD-SAY: Your training step never updates layer1 and layer2: stop_gradient is applied to the hidden features before they feed the output layer, so no gradient reaches the first two layers (and the clipping norm only sees layer3). Apply stop_gradient only to the copy you log (aux = jnp.linalg.norm(jax.lax.stop_gradient(h))) and compute the logits from h itself, or just use jax.value_and_grad(loss_fn).
"""Exercise 5: clipping then Adam; the step also logs the feature norm as an aux."""

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
    """Global-norm clipping, then Adam."""
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def _loss_with_feature_norm(params, x, y):
    """loss_fn, plus the mean norm of the last hidden features for logging."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = jax.lax.stop_gradient(h)  # the logged norm must not feed back into training
    feature_norm = jnp.mean(jnp.linalg.norm(h, axis=-1))
    logits = h @ params["layer3"]["w"] + params["layer3"]["b"]
    loss = -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))
    return loss, feature_norm


def make_train_step(optimizer):
    """Build a jitted training step for ``optimizer``."""

    @jax.jit
    def step(params, opt_state, x, y):
        (loss, _feature_norm), grads = jax.value_and_grad(_loss_with_feature_norm, has_aux=True)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
