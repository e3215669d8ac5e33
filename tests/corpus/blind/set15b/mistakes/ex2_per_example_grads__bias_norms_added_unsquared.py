# BLIND-SET: 15
# EXERCISE: ex2
# WHAT: per_example_grad_norms adds each layer's summed squared weight gradient but the bias gradient's plain L2 norm (not squared) to the running total before the final square root.
# SHOULD-SAY: per_example_grads is right (matches leaf by leaf, leading axis B, vectorised with vmap), but per_example_grad_norms mixes two formulas: weights contribute sum(g**2) while biases contribute ||g|| (an unsquared norm), so every norm is off (too large whenever a bias gradient's norm is below 1) and largest_gradient_example can pick the wrong example. Add the SQUARED bias norms (sum of squares) just like the weights, then take one square root.
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
    total = 0.0
    for layer in grads.values():
        total = total + jnp.sum(layer["w"] ** 2, axis=(1, 2))
        total = total + jnp.linalg.norm(layer["b"], axis=1)
    return jnp.sqrt(total)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
