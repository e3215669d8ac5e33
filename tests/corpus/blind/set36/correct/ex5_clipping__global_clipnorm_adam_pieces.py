# BLIND-SET: 36
# EXERCISE: ex5
# WHAT: Correct rewrite in Keras terms (Adam with global_clipnorm): clip_by_global_norm followed by Adam spelled out as scale_by_adam(b1=0.9, b2=0.999, eps=1e-8) and scale_by_learning_rate, which is exactly optax.adam; the step is a plain function wrapped with jax.jit, unpacking value_and_grad's (loss, grads).
# SHOULD-SAY: Nothing to fix: global-norm clipping before Adam with optax's defaults, a jitted step returning new params, new state and the loss at the incoming params.
"""Exercise 5 (Keras-flavoured rewrite): global-norm clipping chained before Adam."""

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
    """Keras Adam(learning_rate, global_clipnorm=max_norm), in optax pieces."""
    global_clipnorm = optax.clip_by_global_norm(max_norm)
    adam_direction = optax.scale_by_adam(b1=0.9, b2=0.999, eps=1e-8)
    step_size = optax.scale_by_learning_rate(learning_rate)
    return optax.chain(global_clipnorm, adam_direction, step_size)


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""
    grad_fn = jax.value_and_grad(loss_fn)

    def train_step(params, opt_state, x, y):
        loss, grads = grad_fn(params, x, y)
        updates, new_opt_state = optimizer.update(grads, opt_state, params)
        new_params = optax.apply_updates(params, updates)
        return new_params, new_opt_state, loss

    return jax.jit(train_step)
