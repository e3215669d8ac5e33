# BLIND-SET: 19
# EXERCISE: ex5
# WHAT: make_optimizer inserts optax.trace(decay=0.9) (SGD-style momentum) between the clip and Adam
# SHOULD-SAY: Clipping comes first and the train step is right, but the chain has an extra momentum stage, so Adam sees an accumulated (heavy-ball) gradient rather than the clipped gradient; Adam already keeps its own first moment, so remove optax.trace and chain only clip_by_global_norm and adam.
"""Exercise 5: gradient clipping in an optax chain."""

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
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


# --- Your code ----------------------------------------------------------------


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """An optax optimizer that clips, then applies Adam."""
    return optax.chain(
        optax.clip_by_global_norm(max_norm),
        optax.trace(decay=0.9),  # momentum 0.9, as in the usual SGD recipe
        optax.adam(learning_rate),
    )


def make_train_step(optimizer):
    """Build a jitted training step for ``optimizer``."""

    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, new_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), new_state, loss

    return jax.jit(step)
