"""Adam spelled out as scale_by_adam then scale(-lr); the step jitted with jax.jit(step) and returned."""

import jax
import jax.numpy as jnp
import optax


def loss_fn(params, x, y):
    h = x
    for name in ("layer1", "layer2"):
        h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
    logits = h @ params["layer3"]["w"] + params["layer3"]["b"]
    return jnp.mean(optax.softmax_cross_entropy_with_integer_labels(logits, y))


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    return optax.chain(
        optax.clip_by_global_norm(max_norm),
        optax.scale_by_adam(),
        optax.scale(-learning_rate),
    )


def make_train_step(optimizer):
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, new_state = optimizer.update(grads, opt_state, params)
        new_params = jax.tree.map(lambda p, u: p + u, params, updates)
        return new_params, new_state, loss

    return jax.jit(step)
