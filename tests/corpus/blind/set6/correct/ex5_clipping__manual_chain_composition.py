# BLIND-SET: correct
# EXERCISE: ex5
# WHAT: make_optimizer composes clip_by_global_norm and adam by hand in an optax.GradientTransformation whose state is the tuple (clip_state, adam_state), exactly the state optax.chain builds; the step is the reference jitted step with keyword arguments to update.
# SHOULD-SAY: full marks
"""Exercise 5: gradient clipping before Adam, chained by hand."""

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
    clip = optax.clip_by_global_norm(max_norm)
    adam = optax.adam(learning_rate)

    def init_fn(params):
        return (clip.init(params), adam.init(params))

    def update_fn(updates, state, params=None):
        clip_state, adam_state = state
        updates, clip_state = clip.update(updates, clip_state, params)  # clip first ...
        updates, adam_state = adam.update(updates, adam_state, params)  # ... then Adam
        return updates, (clip_state, adam_state)

    return optax.GradientTransformation(init_fn, update_fn)


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, new_state = optimizer.update(grads, opt_state, params=params)
        return optax.apply_updates(params, updates), new_state, loss

    return jax.jit(step)
