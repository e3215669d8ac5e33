# BLIND-SET: 50
# EXERCISE: ex2
# WHAT: largest_gradient_example returns -1 ("no example pulls on the model") when the largest norm is exactly 0. When every per-example gradient is zero (e.g. the softmax is saturated to an exact one-hot on the right class for every example) it returns -1, which is not an index in 0..B-1; the reference returns 0. All other batches are right.
# SHOULD-SAY: When all gradients are zero the function returns -1, but the contract asks for an index in 0..B-1 of the example with the largest norm (with all norms tied at 0, the first example, 0). Remove the zero special case and return int(jnp.argmax(norms)) in every case.
"""Exercise 2: per-example gradients with jax.vmap."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""

    def loss_of_one(p, xi, yi):
        return loss_fn(p, xi.reshape(1, -1), yi.reshape(1))

    return jax.vmap(jax.grad(loss_of_one), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    per_leaf = jax.tree.map(lambda g: jnp.sum(jnp.square(g), axis=tuple(range(1, g.ndim))), grads)
    return jnp.sqrt(jax.tree.reduce(jnp.add, per_leaf))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    if float(jnp.max(norms)) == 0.0:
        # Every gradient vanished: no example pulls on the model at all.
        return -1
    return int(jnp.argmax(norms))
