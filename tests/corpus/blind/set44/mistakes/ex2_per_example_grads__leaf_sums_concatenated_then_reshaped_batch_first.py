# BLIND-SET: 44
# EXERCISE: ex2
# WHAT: per_example_grad_norms computes each leaf's per-example sum of squares, shape (B,), joins the six vectors with jnp.concatenate into one leaf-major (6*B,) vector, and then reads it as reshape(B, -1) (example-major) before summing the rows. For B > 1 each "example" row mixes entries from different examples and leaves, so the norms (and the largest-example index built on them) are wrong. At B = 1 the result is right, and the gradients are right.
# SHOULD-SAY: The per-example norms mix examples: the concatenated vector is laid out leaf by leaf, [leaf0 ex0..exB-1, leaf1 ex0.., ...], so it must be viewed as (L, B) and summed over axis 0, not reshaped to (B, L). Stack the per-leaf sums on a new axis (jnp.stack(..., axis=-1) then sum axis=-1), or reshape(-1, B).sum(0), before the square root.
"""Exercise 2: per-example gradients with jax.vmap over jax.grad."""

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

    def one(params, xi, yi):
        # xi (784,) -> (1, 784); yi () -> (1,)
        return loss_fn(params, xi[None, :], yi[None])

    # every leaf comes back as (B, *leaf.shape)
    return jax.vmap(jax.grad(one), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    leaves = jax.tree.leaves(grads)
    B = leaves[0].shape[0]
    per_leaf = [jnp.sum(jnp.square(g.reshape(B, -1)), axis=-1) for g in leaves]  # L x (B,)
    sq = jnp.concatenate(per_leaf)          # (L * B,)
    sq = sq.reshape(B, -1)                  # (B, L)
    return jnp.sqrt(jnp.sum(sq, axis=-1))   # (B,)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
