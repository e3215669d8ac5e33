# BLIND-SET: correct
# EXERCISE: ex2
# WHAT: per_example_grads differentiates with respect to the ravel_pytree flat parameter vector under jax.vmap and unravels the (B, P) result back into the params pytree with a vmapped unravel; norms are row norms of the re-flattened gradients.
# SHOULD-SAY: full marks
"""Exercise 2: per-example gradients through a flat parameter vector."""

import jax
import jax.numpy as jnp
from jax.flatten_util import ravel_pytree


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
    """Gradient of the loss on each example alone, shaped like params with a leading B axis."""
    flat_params, unravel = ravel_pytree(params)

    def example_loss(flat, xi, yi):
        return loss_fn(unravel(flat), xi[None, :], yi[None])

    flat_grads = jax.vmap(jax.grad(example_loss), in_axes=(None, 0, 0))(flat_params, x, y)
    return jax.vmap(unravel)(flat_grads)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    rows = jax.vmap(lambda tree: ravel_pytree(tree)[0])(grads)
    return jnp.linalg.norm(rows, axis=1)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.argmax(norms))
