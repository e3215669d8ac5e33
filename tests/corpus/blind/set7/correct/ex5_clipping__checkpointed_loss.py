# BLIND-SET: correct
# EXERCISE: ex5
# WHAT: the step differentiates jax.checkpoint(loss_fn) (rematerialised activations: same values and gradients, less memory), binds optimizer.update to a local name, applies updates with jax.tree.map(jnp.add), and returns jax.jit(step) instead of using the decorator. make_optimizer passes its pieces to optax.chain from a list.
# SHOULD-SAY: full marks
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


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    pieces = [optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)]
    return optax.chain(*pieces)


_remat_loss = jax.checkpoint(loss_fn)


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""
    update_fn = optimizer.update

    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(_remat_loss)(params, x, y)
        updates, new_state = update_fn(grads, opt_state, params)
        return jax.tree.map(jnp.add, params, updates), new_state, loss

    return jax.jit(step)
