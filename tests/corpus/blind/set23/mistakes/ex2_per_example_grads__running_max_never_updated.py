# BLIND-SET: 23
# EXERCISE: ex2
# WHAT: largest_gradient_example scans the norms with a Python loop but never updates best_norm (it stays 0.0), so it returns the last example with a non-zero gradient norm, in practice always B-1, not the argmax
# SHOULD-SAY: largest_gradient_example does not return the index of the largest norm: in the loop only best_index is updated, best_norm stays 0.0, so every non-zero norm 'wins' and you get the last index (B-1) almost always. Update best_norm too, or use int(jnp.argmax(norms)). The gradients and norms themselves are fine.
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
    best_index, best_norm = 0, 0.0
    for i, norm in enumerate(norms):
        if norm > best_norm:
            best_index = i
    return best_index
