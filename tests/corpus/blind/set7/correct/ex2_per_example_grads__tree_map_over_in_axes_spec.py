# BLIND-SET: correct
# EXERCISE: ex2
# WHAT: in_axes is given as a full pytree spec (params mapped to None leaf by leaf with jax.tree.map, x and y to 0) and the loss is optax.softmax_cross_entropy with explicit one-hot targets on a (1, 784) slice made by x_i[jnp.newaxis]; norms are the square root of a Python sum of per-leaf sums of squares over all non-batch axes; the index uses max(range(B), key=...).
# SHOULD-SAY: full marks
"""Exercise 2: per-example gradients with a pytree in_axes spec."""

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


def _example_loss(params, xi, yi):
    logits = forward(params, xi[jnp.newaxis])
    return optax.softmax_cross_entropy(logits, jax.nn.one_hot(yi[jnp.newaxis], 10)).mean()


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    params_axes = jax.tree.map(lambda _: None, params)
    return jax.vmap(jax.grad(_example_loss), in_axes=(params_axes, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    total = sum(jnp.sum(jnp.square(g), axis=tuple(range(1, g.ndim))) for g in jax.tree.leaves(grads))
    return jnp.sqrt(total)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y)).tolist()
    return max(range(len(norms)), key=norms.__getitem__)
