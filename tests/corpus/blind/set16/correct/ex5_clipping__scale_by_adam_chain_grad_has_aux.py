# BLIND-SET: 16
# EXERCISE: ex5
# WHAT: correct rewrite: the optimizer is spelled out as clip_by_global_norm, scale_by_adam and scale(-learning_rate) in one chain, and the step uses jax.grad(has_aux=True) to get the loss, is wrapped with jax.jit(...) rather than a decorator, and applies the updates with jax.tree.map.
# SHOULD-SAY: everything is correct: the optimizer clips the global gradient norm to max_norm and then applies Adam with the given learning rate (numerically the same as optax.chain(clip_by_global_norm, adam)), and the jitted step computes loss and gradients at the incoming params, updates through the optimizer and returns the new params, the new state and the loss before the update.
"""Exercise 5: gradient clipping chained before Adam (spelled-out version)."""

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
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(
        optax.clip_by_global_norm(max_norm),
        optax.scale_by_adam(b1=0.9, b2=0.999, eps=1e-8),
        optax.scale(-learning_rate),
    )


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    def loss_and_aux(params, x, y):
        loss = loss_fn(params, x, y)
        return loss, loss

    def step(params, opt_state, x, y):
        grads, loss = jax.grad(loss_and_aux, has_aux=True)(params, x, y)
        updates, new_state = optimizer.update(grads, opt_state, params)
        new_params = jax.tree.map(lambda p, u: p + u, params, updates)
        return new_params, new_state, loss

    return jax.jit(step)
