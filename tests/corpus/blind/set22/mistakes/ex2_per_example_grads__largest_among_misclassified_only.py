# BLIND-SET: 22
# EXERCISE: ex2
# WHAT: largest_gradient_example masks out examples the model already classifies correctly (their norms set to -inf) before the argmax, so it returns the largest-norm misclassified example, and 0 when every example is classified correctly.
# SHOULD-SAY: per_example_grads and per_example_grad_norms are right, and the index is a Python int, but largest_gradient_example must take the argmax over all examples' gradient norms; the extra filter to misclassified examples returns a different index whenever a correctly classified example has the largest gradient norm (and always 0 when all are correct). Drop the mask: int(jnp.argmax(norms)).
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
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    # The big gradients come from the examples the model gets wrong; only look at those.
    wrong = jnp.argmax(forward(params, x), axis=-1) != y
    return int(jnp.argmax(jnp.where(wrong, norms, -jnp.inf)))
