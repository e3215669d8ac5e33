# BLIND-SET: 27
# EXERCISE: ex2
# WHAT: per_example_grad_norms flattens every leaf with g.reshape(BATCH_SIZE, -1), BATCH_SIZE = 128 (the lesson's batch), instead of the leaf's own leading axis. Only B = 128 gives the right norms; B = 64 returns 128 values, each over half of one example's gradient, so the index can even exceed B - 1; batches such as 1, 3 or 8 raise a reshape error (and largest_gradient_example with them). per_example_grads is right.
# SHOULD-SAY: The number of examples is grads' leading axis (g.shape[0]), not the lesson's batch size. Reshape each leaf with g.reshape(g.shape[0], -1) (or vmap a tree norm over the leading axis) so the norms work for any B.
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

BATCH_SIZE = 128


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""

    def single_example_loss(params, xi, yi):
        return loss_fn(params, xi[None], yi[None])

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    rows = [g.reshape(BATCH_SIZE, -1) for g in jax.tree.leaves(grads)]
    return jnp.linalg.norm(jnp.concatenate(rows, axis=1), axis=1)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
