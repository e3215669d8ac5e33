# BLIND-SET: correct
# EXERCISE: ex2
# WHAT: Computes the norms with jax.tree.map (sum of squares over all but the leading axis) and jax.tree.reduce(jnp.add, ...), then a square root.
# SHOULD-SAY: full marks
"""Exercise 2: per-example gradient norms with jax.tree utilities."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""

    def example_loss(p, xi, yi):
        return loss_fn(p, jnp.expand_dims(xi, 0), jnp.expand_dims(yi, 0))

    return jax.vmap(jax.grad(example_loss, argnums=0), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    squares = jax.tree.map(lambda g: jnp.sum(jnp.square(g).reshape(g.shape[0], -1), axis=1), grads)
    return jnp.sqrt(jax.tree.reduce(jnp.add, squares))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
