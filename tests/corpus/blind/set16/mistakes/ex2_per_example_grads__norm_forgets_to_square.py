# BLIND-SET: 16
# EXERCISE: ex2
# WHAT: per_example_grad_norms sums the raw gradient entries of each example (no squaring) before the square root, so the "norm" is sqrt of a signed sum and is NaN whenever that sum is negative.
# SHOULD-SAY: per_example_grads is right (vmap over grad, one leading batch axis, each slice the gradient of that example alone), but per_example_grad_norms is not an L2 norm: the entries are summed without being squared, giving wrong values and NaN for examples whose gradient entries sum to a negative number, which also makes largest_gradient_example pick the wrong index; square the entries (g**2) before summing over all leaves and then take the square root.
"""Exercise 2 (reference): per-example gradients with jax.vmap over jax.grad."""

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


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""

    def single_example_loss(params, xi, yi):
        return loss_fn(params, xi[None], yi[None])

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    total = 0.0
    for g in jax.tree.leaves(grads):
        total = total + jnp.sum(g.reshape(g.shape[0], -1), axis=1)
    return jnp.sqrt(total)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
