# BLIND-SET: 33
# EXERCISE: ex2
# WHAT: per_example_grads tries to accept one-hot labels by testing `y.shape[-1] == 10` and taking argmax; for int32 labels with a batch of exactly 10 examples the test fires, y collapses to a scalar and jax.vmap raises, so per_example_grads and largest_gradient_example fail at B = 10 (other batch sizes are fine).
# SHOULD-SAY: The label check confuses the batch axis with a class axis: int labels of shape (10,) look like one one-hot row. The contract gives int32 labels of shape (B,); drop the one-hot conversion (or test y.ndim == 2).
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

    if y.shape[-1] == 10:
        # labels handed over one-hot: turn them back into class indices
        y = jnp.argmax(y, axis=-1)

    def single_example_loss(params, xi, yi):
        return loss_fn(params, xi[None], yi[None])

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
