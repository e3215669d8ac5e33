# BLIND-SET: mistake
# EXERCISE: ex2
# WHAT: per_example_grads passes `out_axes=-1` to jax.vmap, so the batch axis of every gradient leaf is the LAST axis (w: (in, out, B), b: (out, B)) instead of the leading one; the norms are computed consistently with that layout, so the norms and the index are still right.
# SHOULD-SAY: ex2 per_example_grads fails the shape/slice check: every leaf must have the batch axis first (shape (B, *param.shape)) so that slice i is example i's gradient; drop out_axes=-1. per_example_grad_norms is written for this batch-last layout (it breaks on correctly shaped grads), while largest_gradient_example still returns the right index.
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
    """Gradient of the loss on each example alone, stacked on the batch axis."""

    def single_example_loss(params, xi, yi):
        return loss_fn(params, xi[None], yi[None])

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0), out_axes=-1)(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    squares = [jnp.sum(g**2, axis=tuple(range(g.ndim - 1))) for g in jax.tree.leaves(grads)]
    return jnp.sqrt(sum(squares))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
