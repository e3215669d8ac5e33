# BLIND-SET: 15
# EXERCISE: ex2
# WHAT: per_example_grads differentiates a single-example loss built on the student's own loop-over-layers forward pass, which applies ReLU after every layer including the output layer.
# SHOULD-SAY: per_example_grads does not match the per-example gradients of the lesson's loss: the hand-written single-example forward applies ReLU to the logits too, so negative logits are clamped to 0 and their gradients vanish (layer3 grads in particular are wrong, and every leaf differs). The shape (leading axis B) and the vmap vectorisation are right, and per_example_grad_norms is right on the grads it is given. Use the given loss_fn/forward (no ReLU on the last layer) inside the vmapped grad.
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


def _example_logits(params, xi):
    """Forward pass for one example (a vector of 784 pixels)."""
    h = xi
    for name in ("layer1", "layer2", "layer3"):
        h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
    return h


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""

    def single_example_loss(params, xi, yi):
        logp = jax.nn.log_softmax(_example_logits(params, xi))
        return -jnp.sum(logp * jax.nn.one_hot(yi, 10))

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))

