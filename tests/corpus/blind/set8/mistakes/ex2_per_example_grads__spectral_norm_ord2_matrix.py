# BLIND-SET: mistake
# EXERCISE: ex2
# WHAT: Each leaf's norm is jnp.linalg.norm(g, ord=2, axis=<all but batch>): for the 2-D weight slices ord=2 is the spectral norm (largest singular value), not the Frobenius/L2 norm. Real per-example weight gradients are rank-1, where the two agree, so only general pytrees expose it.
# SHOULD-SAY: ex2: per_example_grad_norms uses the matrix 2-norm (spectral) for weight leaves instead of the element-wise L2 norm; wrong on arbitrary per-example pytrees, invisible on genuine per-example MLP gradients.
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

    def leaf_norm(g):
        # the L2 norm of each example's slice of this leaf
        return jnp.linalg.norm(g, ord=2, axis=tuple(range(1, g.ndim)))

    leaf_norms = [leaf_norm(g) for g in jax.tree.leaves(grads)]
    return jnp.sqrt(sum(n**2 for n in leaf_norms))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
