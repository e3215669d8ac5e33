# BLIND-SET: 33
# EXERCISE: ex5
# WHAT: correct rewrite: hyperparameters checked (non-positive max_norm / learning rate rejected), clip and adam built separately then chained; the step checks the optimizer by duck typing, coerces x and y, and adds updates with jax.tree.map under jax.jit.
# SHOULD-SAY: nothing to fix: clip-by-global-norm then Adam, and a jitted step returning new params, new state and the pre-update loss.
"""Exercise 5: gradient clipping chained before Adam (validated hyperparameters)."""

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
    if max_norm <= 0:
        raise ValueError(f"max_norm must be positive, got {max_norm!r}")
    if isinstance(learning_rate, (int, float)) and learning_rate <= 0:
        raise ValueError(f"learning_rate must be positive, got {learning_rate!r}")
    clip = optax.clip_by_global_norm(max_norm)
    adam = optax.adam(learning_rate=learning_rate)
    return optax.chain(clip, adam)


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""
    if not (hasattr(optimizer, "init") and hasattr(optimizer, "update")):
        raise TypeError("optimizer must be an optax GradientTransformation")
    value_and_grad = jax.value_and_grad(loss_fn)

    def _step(params, opt_state, x, y):
        x = jnp.asarray(x, dtype=jnp.float32)
        y = jnp.asarray(y, dtype=jnp.int32)
        loss, grads = value_and_grad(params, x, y)
        updates, new_state = optimizer.update(grads, opt_state, params)
        new_params = jax.tree.map(lambda p, u: p + u, params, updates)
        return new_params, new_state, loss

    return jax.jit(_step)
