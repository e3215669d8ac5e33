# BLIND-SET: 23
# EXERCISE: ex2
# WHAT: per_example_grad_norms loops over range(len(grads)), but grads is the params-shaped dict, so len(grads) is the number of layers (3), not B: it always returns the norms of the first 3 examples, shape (3,) instead of (B,), and largest_gradient_example only looks at examples 0..2
# SHOULD-SAY: per_example_grad_norms must return shape (B,), one norm per example; yours returns shape (3,) whatever the batch size, because len(grads) counts the layers of the gradient dict, not the examples. Take B from a leaf's leading axis (e.g. jax.tree.leaves(grads)[0].shape[0]) or just jax.vmap the global norm. As a consequence largest_gradient_example ignores every example after the third.
"""Exercise 2 (reference): per-example gradients with jax.vmap over jax.grad."""

import jax
import jax.numpy as jnp
import optax

# optax.tree.norm is the current name; optax.global_norm is the older one.
_tree_norm = optax.tree.norm if hasattr(optax, "tree") else optax.global_norm


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
    batch_size = len(grads)  # one gradient per example
    norms = []
    for i in range(batch_size):
        example_grad = jax.tree.map(lambda g: g[i], grads)
        norms.append(_tree_norm(example_grad))
    return jnp.stack(norms)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
