# BLIND-SET: 48
# EXERCISE: ex5
# WHAT: Correct. make_optimizer is optax.named_chain(("clip", optax.clip_by_global_norm(max_norm)), ("adam", optax.adam(learning_rate))), the same updates as optax.chain of the two. The jitted step takes jax.value_and_grad of a loss written as optax.losses.softmax_cross_entropy_with_integer_labels(logits, y).mean() (equal to the lesson's loss), updates through the optimizer it is given and applies the updates with optax.tree.add, returning the loss at the incoming params.
# SHOULD-SAY: Nothing to fix: the optimizer and the training step meet the contract (full marks for ex5).
"""Exercise 5: gradient clipping in a named optax chain."""

import jax
import jax.numpy as jnp
import optax

# --- Given: the lesson's model and loss ----------------------------------------


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes (optax.losses)."""
    logits = forward(params, x)
    return optax.losses.softmax_cross_entropy_with_integer_labels(logits, y).mean()


# --- Your code ----------------------------------------------------------------


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Global-norm clipping, then Adam."""
    return optax.named_chain(
        ("clip", optax.clip_by_global_norm(max_norm)),
        ("adam", optax.adam(learning_rate)),
    )


def make_train_step(optimizer):
    """A jitted training step for ``optimizer``."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, new_state = optimizer.update(grads, opt_state, params)
        return optax.tree.add(params, updates), new_state, loss

    return step
