# BLIND-SET: 48
# EXERCISE: ex2
# WHAT: largest_gradient_example takes jnp.argsort(norms, descending=True)[-1]: with descending=True the last index is the smallest norm, so the function returns the index of the example with the SMALLEST gradient norm (the argmin). Gradients and norms are right.
# SHOULD-SAY: The index must point at the largest norm; yours points at the smallest. argsort(..., descending=True) puts the largest first, so take element [0] (or drop descending=True and take [-1]); simplest is int(jnp.argmax(norms)).
"""Exercise 2: per-example gradients with jax.vmap, norms with vecdot."""

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


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone, stacked on axis 0."""

    def example_loss(p, xi, yi):
        return loss_fn(p, xi[None, :], yi[None])

    return jax.vmap(jax.grad(example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""

    def sumsq(g):
        flat = g.reshape(g.shape[0], -1)
        return jnp.vecdot(flat, flat)

    return jnp.sqrt(jax.tree.reduce(jnp.add, jax.tree.map(sumsq, grads)))


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    ranking = jnp.argsort(norms, descending=True)
    return int(ranking[-1])
