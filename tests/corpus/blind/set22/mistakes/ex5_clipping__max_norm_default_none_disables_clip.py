# BLIND-SET: 22
# EXERCISE: ex5
# WHAT: make_optimizer's max_norm defaults to None instead of 1.0 and None means "no clipping" (plain optax.adam), so make_optimizer() and make_optimizer(lr) do not clip at all; an explicit max_norm gives the right chain.
# SHOULD-SAY: with an explicit max_norm the optimizer is exactly clip_by_global_norm followed by Adam, and the jitted train step is right, but the default max_norm is None instead of 1.0, and None silently returns Adam without clipping, so make_optimizer() (and make_optimizer(learning_rate)) lets a gradient spike through unclipped and has a different state structure. Make the signature make_optimizer(learning_rate=1e-3, max_norm=1.0) and always chain the clip.
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


def make_optimizer(learning_rate=1e-3, max_norm=None):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    if max_norm is None:  # clipping is optional
        return optax.adam(learning_rate)
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
