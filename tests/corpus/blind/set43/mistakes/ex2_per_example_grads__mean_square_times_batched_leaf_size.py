# BLIND-SET: 43
# EXERCISE: ex2
# WHAT: per_example_grad_norms accumulates each leaf as mean(g_i**2) (over the non-batch axes) times leaf.size "to keep the float32 accumulator small", but leaf.size counts the batch axis too, so every squared norm is multiplied by B and the norms come out sqrt(B) times too large (11.3x at B = 128; right only at B = 1). The gradients and the largest index are unaffected.
# SHOULD-SAY: the per-example gradient norms are too large by a factor sqrt(B): the element count used to turn the mean of squares back into a sum includes the batch axis. Multiply by the number of elements of one example's slice (leaf[0].size, or prod(leaf.shape[1:])), or just sum the squares over the non-batch axes.
"""Exercise 2: per-example gradients with jax.vmap over jax.grad.

Norms are accumulated as mean-of-squares times count: averaging first keeps
the partial sums near the data's scale instead of growing with the layer size.
"""

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
        return loss_fn(p, xi[None], yi[None])

    return jax.vmap(jax.grad(example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    total = None
    for leaf in jax.tree.leaves(grads):
        leaf = jnp.asarray(leaf, dtype=jnp.float32)
        axes = tuple(range(1, leaf.ndim))
        part = jnp.mean(jnp.square(leaf), axis=axes) * leaf.size
        total = part if total is None else total + part
    return jnp.sqrt(total)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
