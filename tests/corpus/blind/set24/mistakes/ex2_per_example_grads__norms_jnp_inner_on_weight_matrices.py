# BLIND-SET: 24
# EXERCISE: ex2
# WHAT: per_example_grad_norms vmaps over examples and sums jnp.sum(jnp.inner(leaf, leaf)) over the leaves, taking jnp.inner for a flattened dot product; on a 2-D weight gradient jnp.inner contracts only the last axis and returns the (in, in) Gram matrix, whose sum is ||sum of the rows||^2, not ||W||_F^2. Bias leaves (1-D) come out right, weight leaves wrong, so the norms (and possibly the argmax) are wrong.
# SHOULD-SAY: The per-example norms are wrong for the weight leaves: jnp.inner(W, W) on a matrix is W @ W.T (a Gram matrix), and summing it gives the squared norm of the row sum, not the sum of squares. Use jnp.vdot(g, g) or jnp.sum(g ** 2) (or optax.tree.norm) so every element of every leaf is squared once.
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

    def one_example_norm(example_grads):
        squares = [jnp.sum(jnp.inner(leaf, leaf)) for leaf in jax.tree.leaves(example_grads)]
        return jnp.sqrt(sum(squares))

    return jax.vmap(one_example_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
