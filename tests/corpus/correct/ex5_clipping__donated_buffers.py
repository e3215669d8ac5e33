"""A performance-minded step: jit with donate_argnums for params and opt_state; Adam via inject_hyperparams."""

import jax
import jax.numpy as jnp
import optax


def loss_fn(params, x, y):
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    logits = h @ params["layer3"]["w"] + params["layer3"]["b"]
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    return optax.chain(optax.clip_by_global_norm(max_norm),
                       optax.inject_hyperparams(optax.adam)(learning_rate=learning_rate))


def make_train_step(optimizer):
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return jax.jit(step, donate_argnums=(0, 1))
