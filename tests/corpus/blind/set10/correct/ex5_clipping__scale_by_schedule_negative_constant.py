# BLIND-SET: correct
# EXERCISE: ex5
# WHAT: make_optimizer is clip_by_global_norm, scale_by_adam and optax.scale_by_schedule with a constant schedule returning -learning_rate; the step is an ordinary jitted value_and_grad update.
# SHOULD-SAY: full marks
"""Exercise 5: clipping, Adam scaling and a constant negative schedule."""

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
    """Clip the global norm, rescale like Adam, then step by -learning_rate."""
    return optax.chain(
        optax.clip_by_global_norm(max_norm),
        optax.scale_by_adam(b1=0.9, b2=0.999, eps=1e-8),
        optax.scale_by_schedule(lambda count: -learning_rate),
    )


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        new_params = optax.apply_updates(params, updates)
        return new_params, opt_state, loss

    return jax.jit(step)
