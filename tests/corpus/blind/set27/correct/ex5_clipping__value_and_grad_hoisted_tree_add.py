# BLIND-SET: 27
# EXERCISE: ex5
# WHAT: Correct rewrite: the two transformations are listed (with keyword arguments) and star-passed to optax.chain; make_train_step builds jax.value_and_grad(loss_fn) once, adds the updates with jax.tree.map(jnp.add, ...) and returns jax.jit(step).
# SHOULD-SAY: Nothing to fix: global-norm clipping before Adam, loss and gradients at the incoming params, the given optimizer's new state returned, and the step is jitted.
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
    stages = [
        optax.clip_by_global_norm(max_norm=max_norm),
        optax.adam(learning_rate=learning_rate),
    ]
    return optax.chain(*stages)


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""
    loss_and_grads = jax.value_and_grad(loss_fn)

    def step(params, opt_state, x, y):
        loss, grads = loss_and_grads(params, x, y)
        updates, new_state = optimizer.update(grads, opt_state, params)
        new_params = jax.tree.map(jnp.add, params, updates)
        return new_params, new_state, loss

    return jax.jit(step)
