# BLIND-SET: 51
# EXERCISE: ex5
# WHAT: The step has a "safeguard": after the update it re-evaluates the loss on the same batch and keeps the old params (jnp.where leaf by leaf) whenever the new loss is higher, while the optimizer state still advances. When a step lowers the batch loss (lesson lr 1e-3) it matches the reference. When it raises the loss (e.g. learning_rate=0.5, or a spiky batch) the returned params are the incoming ones instead of the updated ones.
# SHOULD-SAY: The step must always return optax.apply_updates(params, updates). Rejecting updates that raise the batch loss is not part of clip-then-Adam, and it leaves params and optimizer state out of step. Remove the accept/reject check.
"""Exercise 5: gradient clipping in an optax chain (defensive)."""

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
    """Clip the global gradient norm to max_norm, then apply Adam."""
    learning_rate = float(learning_rate)
    max_norm = float(max_norm)
    if max_norm <= 0:
        raise ValueError(f"max_norm must be positive, got {max_norm}")
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through optimizer."""
    if not isinstance(optimizer, optax.GradientTransformation):
        raise TypeError("make_train_step needs an optax GradientTransformation")

    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        candidate = optax.apply_updates(params, updates)
        # Safeguard: never accept a step that makes the batch loss worse.
        improved = loss_fn(candidate, x, y) <= loss
        new_params = jax.tree.map(lambda new, old: jnp.where(improved, new, old), candidate, params)
        return new_params, opt_state, loss

    return jax.jit(step)
