# BLIND-SET: 24
# EXERCISE: ex2
# WHAT: per_example_grad_norms loops `for i in range(len(grads))`, treating the grads pytree as if it were a batch; len() of the dict is the number of layers (3), not B, so it returns norms for only the first three examples (shape (3,) instead of (B,)) and largest_gradient_example can only ever answer 0, 1 or 2.
# SHOULD-SAY: per_example_grad_norms returns 3 values instead of B: `len(grads)` counts the top-level keys of the params dict (the layers), not examples. The batch size is the leading axis of every leaf (e.g. jax.tree.leaves(grads)[0].shape[0]); better, vmap a tree norm over that axis (jax.vmap(optax.tree.norm)(grads)). As a result largest_gradient_example only looks at the first three examples.
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
    norms = []
    for i in range(len(grads)):
        example_grads = jax.tree.map(lambda g: g[i], grads)
        norms.append(_tree_norm(example_grads))
    return jnp.stack(norms)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
