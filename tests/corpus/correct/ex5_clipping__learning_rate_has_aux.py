"""scale_by_learning_rate in the chain; value_and_grad with has_aux returning the logits too."""

import jax
import jax.numpy as jnp
import optax


def forward(params, x):
    h = jax.nn.relu(jnp.dot(x, params["layer1"]["w"]) + params["layer1"]["b"])
    h = jax.nn.relu(jnp.dot(h, params["layer2"]["w"]) + params["layer2"]["b"])
    return jnp.dot(h, params["layer3"]["w"]) + params["layer3"]["b"]


def loss_and_logits(params, x, y):
    logits = forward(params, x)
    labels = jax.nn.one_hot(y, 10)
    loss = optax.softmax_cross_entropy(logits, labels).mean()
    return loss, logits


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    clip = optax.clip_by_global_norm(max_norm=max_norm)
    adam = optax.chain(optax.scale_by_adam(b1=0.9, b2=0.999, eps=1e-8),
                       optax.scale_by_learning_rate(learning_rate))
    return optax.chain(clip, adam)


def make_train_step(optimizer):
    grad_fn = jax.value_and_grad(loss_and_logits, has_aux=True)

    @jax.jit
    def train_step(params, opt_state, x, y):
        (loss, _logits), grads = grad_fn(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
        return params, opt_state, loss

    return train_step
