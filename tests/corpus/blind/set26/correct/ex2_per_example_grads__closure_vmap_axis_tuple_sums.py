# BLIND-SET: 26
# EXERCISE: ex2
# WHAT: correct rewrite: params closed over and jax.vmap(in_axes=0) over (x, y) of a function that takes jax.grad of loss_fn on one example reshaped to a batch of one; norms as the square root of the per-example sums of squares over every leaf (sum over all axes but the first); index via .item().
# SHOULD-SAY: nothing to fix: per-example gradients with a leading batch axis on every leaf, global L2 norms over weights and biases, and a Python int index, for any batch size.
"""Exercise 2: per-example gradients, vmapped over the examples with params closed over."""

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
    """One gradient per example, stacked along a new leading axis."""
    grad_of_loss = jax.grad(loss_fn)

    def one_example(xi, yi):
        return grad_of_loss(params, jnp.reshape(xi, (1, -1)), jnp.reshape(yi, (1,)))

    return jax.vmap(one_example)(x, y)


def per_example_grad_norms(grads):
    """sqrt of each example's sum of squares over every element of every leaf."""
    total = 0.0
    for leaf in jax.tree.leaves(grads):
        total = total + jnp.sum(jnp.square(leaf), axis=tuple(range(1, leaf.ndim)))
    return jnp.sqrt(total)


def largest_gradient_example(params, x, y):
    """Python int index of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.argmax(norms).item())
