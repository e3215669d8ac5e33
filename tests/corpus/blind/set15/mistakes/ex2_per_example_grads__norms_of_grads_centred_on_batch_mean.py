# BLIND-SET: 15
# EXERCISE: ex2
# WHAT: per_example_grad_norms subtracts the batch-mean gradient from every example's gradient before taking the global L2 norm, so it returns the norm of each example's deviation from the average gradient.
# SHOULD-SAY: per_example_grads is right (matching leaf by leaf, leading axis B, vectorised), but per_example_grad_norms is wrong: it measures ||g_i - mean_j g_j|| instead of ||g_i||, so the norms are off on every batch (and for a batch of one they are all zero), and largest_gradient_example can point at a different example. Take the norm of each example's own gradient, without centring on the batch mean.
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
    # look at how far each example pulls away from the batch gradient
    centred = jax.tree.map(lambda g: g - jnp.mean(g, axis=0, keepdims=True), grads)
    return jax.vmap(_tree_norm)(centred)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))

