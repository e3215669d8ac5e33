# BLIND-SET: 21
# EXERCISE: ex2
# WHAT: per_example_grads swaps the last two axes of every weight gradient to torch's grad_sample layout (B, out_features, in_features), so the "w" leaves are (B, out, in) instead of (B, in, out); biases, norms and the largest index are unaffected.
# SHOULD-SAY: the vmap-over-grad computation, the norms and the largest-example index are right, but the returned gradient tree is not shaped like params: each "w" leaf is transposed to (B, out, in) as in PyTorch's Linear layout. Return the gradients exactly as jax.vmap(jax.grad(...)) gives them, (B,) + w.shape, with no swapaxes.
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

    grads = jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)
    # Same layout as torch's grad_sample for nn.Linear: (B, out_features, in_features).
    return {name: {"w": jnp.swapaxes(g["w"], 1, 2), "b": g["b"]} for name, g in grads.items()}


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))

