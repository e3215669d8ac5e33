# BLIND-SET: 19
# EXERCISE: ex2
# WHAT: largest_gradient_example sorts the norms in descending order and returns position [1] (the second-largest example) instead of [0]
# SHOULD-SAY: per_example_grads and per_example_grad_norms are correct and the result is a Python int, but the index is off by one in the ranking: argsort(-norms)[1] is the runner-up; take [0] (or simply jnp.argmax(norms)).
"""Exercise 2: per-example gradients with jax.vmap."""

import jax
import jax.numpy as jnp

# --- Given: the lesson's model and loss ----------------------------------------


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


# --- Your code ----------------------------------------------------------------


def _loss_on_one(params, xi, yi):
    return loss_fn(params, jnp.expand_dims(xi, 0), jnp.expand_dims(yi, 0))


_grad_each = jax.vmap(jax.grad(_loss_on_one), in_axes=(None, 0, 0))


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone."""
    return _grad_each(params, x, y)


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""
    per_leaf = jax.tree.map(lambda g: jnp.sum(jnp.square(g), axis=tuple(range(1, g.ndim))), grads)
    return jnp.sqrt(jax.tree_util.tree_reduce(jnp.add, per_leaf))


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    ranking = jnp.argsort(-norms)  # biggest first
    return int(ranking[1])
