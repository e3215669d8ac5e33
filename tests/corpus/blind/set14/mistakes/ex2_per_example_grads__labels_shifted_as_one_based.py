# BLIND-SET: 14
# EXERCISE: ex2
# WHAT: The per-example loss one-hot encodes y - 1 (labels treated as 1-based), so every example's target is the wrong class and label 0 gets an all-zero target.
# SHOULD-SAY: per_example_grads has the right structure and leading axis B but the wrong values: the per-example loss uses one_hot(y - 1), so each example is trained towards the previous class and examples labelled 0 get a zero target (zero gradient); labels are already 0..9, use one_hot(y, 10) (or loss_fn on xi[None], yi[None]). per_example_grad_norms is right when given correct gradients; largest_gradient_example inherits the wrong gradients.
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
        logits = forward(params, xi)
        # Class labels run 1..10, so shift them to 0-based one-hot positions.
        target = jax.nn.one_hot(yi - 1, 10)
        return -jnp.sum(jax.nn.log_softmax(logits) * target)

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
