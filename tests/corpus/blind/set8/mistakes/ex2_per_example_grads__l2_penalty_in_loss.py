# BLIND-SET: mistake
# EXERCISE: ex2
# WHAT: The per-example loss adds a PyTorch-style weight-decay term 0.5*5e-4*sum(w**2) over the weight matrices, so every weight-gradient slice is off by 5e-4*w (biases unchanged); the norms and the index follow from those gradients.
# SHOULD-SAY: ex2: per-example weight gradients differ from jax.grad(loss_fn) on each example by a weight-decay term (biases match); small absolute error, caught by a tight tolerance.
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

    weight_decay = 5e-4

    def single_example_loss(params, xi, yi):
        l2 = sum(jnp.sum(layer["w"] ** 2) for layer in params.values())
        return loss_fn(params, xi[None], yi[None]) + 0.5 * weight_decay * l2

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
