# BLIND-SET: 14
# EXERCISE: ex5
# WHAT: make_optimizer wraps the clip in optax.conditionally_transform with a condition that is always true (a hook for switching clipping off later) before Adam, and the step calls optimizer.update with keyword arguments and adds the updates with jax.tree.map.
# SHOULD-SAY: Full marks: the updates are numerically those of clip_by_global_norm followed by Adam for every learning_rate / max_norm, spike included (the wrapper only adds a step counter to the state); the step returns the right new params, new optimizer state and the loss at the incoming params, uses the optimizer it is given and is jitted.
"""Exercise 5: gradient clipping in an optax chain."""

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


def _always(step):
    """Clip at every step (kept as a function so it can be scheduled later)."""
    return jnp.asarray(True)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """An optax optimizer that clips, then applies Adam."""
    clip = optax.conditionally_transform(optax.clip_by_global_norm(max_norm), _always)
    return optax.chain(clip, optax.adam(learning_rate))


def make_train_step(optimizer):
    """Build a jitted training step for ``optimizer``."""

    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, new_state = optimizer.update(updates=grads, state=opt_state, params=params)
        new_params = jax.tree.map(lambda p, u: p + u, params, updates)
        return new_params, new_state, loss

    return jax.jit(step)
