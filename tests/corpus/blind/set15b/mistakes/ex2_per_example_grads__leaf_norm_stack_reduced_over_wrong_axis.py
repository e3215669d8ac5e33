# BLIND-SET: 15
# EXERCISE: ex2
# WHAT: per_example_grad_norms stacks the per-leaf norms into an (n_leaves, B) matrix and then reduces it with axis=1 instead of axis=0, so it returns one number per leaf (shape (6,)) instead of one per example.
# SHOULD-SAY: per_example_grads is right, but per_example_grad_norms reduces the wrong axis of its stacked (n_leaves, B) matrix: it returns the norm of each LEAF over the whole batch, shape (6,) for the lesson's params, not shape (B,) (the shape only matches by accident when B == 6, and the values are still wrong). largest_gradient_example therefore returns a leaf index, not an example index. Reduce over the leaf axis (axis=0) so you get one norm per example.
"""Exercise 2: per-example gradients with jax.vmap over jax.grad."""

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
    leaf_norms = jnp.stack(
        [jnp.linalg.norm(g.reshape(g.shape[0], -1), axis=1) for g in jax.tree.leaves(grads)]
    )  # one row per leaf, one column per example
    return jnp.linalg.norm(leaf_norms, axis=1)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
