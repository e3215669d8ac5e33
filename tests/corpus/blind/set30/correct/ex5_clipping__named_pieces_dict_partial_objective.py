# BLIND-SET: 30
# EXERCISE: ex5
# WHAT: correct rewrite: make_optimizer builds an insertion-ordered dict of named transformations (clip_by_global_norm, then adam) and chains its values; the jitted step differentiates functools.partial(loss_fn, x=x, y=y) with jax.value_and_grad and adds the updates with jax.tree_util.tree_map(jnp.add, ...).
# SHOULD-SAY: Nothing to fix: clipping before Adam, loss and gradients at the incoming params, the given optimizer's update, and a jitted step returning (new params, new state, loss before the update).
"""Exercise 5 (reference): gradient clipping chained before Adam."""

import functools

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


def make_optimizer(learning_rate: float = 1e-3, max_norm: float = 1.0) -> optax.GradientTransformation:
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    # Order matters and dicts keep insertion order: clip first, then Adam.
    pieces = {
        "clip_by_global_norm": optax.clip_by_global_norm(max_norm),
        "adam": optax.adam(learning_rate),
    }
    return optax.chain(*pieces.values())


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    def step(params, opt_state, x, y):
        objective = functools.partial(loss_fn, x=x, y=y)
        loss, grads = jax.value_and_grad(objective)(params)
        updates, new_opt_state = optimizer.update(grads, opt_state, params)
        new_params = jax.tree_util.tree_map(jnp.add, params, updates)
        return new_params, new_opt_state, loss

    return jax.jit(step)
