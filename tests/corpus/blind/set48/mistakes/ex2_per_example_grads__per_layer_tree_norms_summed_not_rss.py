# BLIND-SET: 48
# EXERCISE: ex2
# WHAT: per_example_grad_norms maps a vmapped optax.tree.norm over each layer dict (is_leaf stops at the {"w", "b"} dicts) and then combines the per-layer norms with jax.tree.reduce(jnp.add, ...): the result is the sum of the three per-layer L2 norms, not the square root of the sum of their squares, so every norm is too large (between 1x and sqrt(3)x the true one) and the ranking of examples can change. The gradients themselves are right.
# SHOULD-SAY: The global norm is sqrt(sum of squares over every element of every leaf); adding per-layer norms gives a different (larger) number. Combine the layer norms as sqrt(sum of their squares), or take optax.tree.norm of each example's whole gradient tree (jax.vmap(optax.tree.norm)(grads)).
"""Exercise 2: per-example gradients with jax.vmap, norms layer by layer."""

import jax
import jax.numpy as jnp
import optax

# --- Given: the lesson's model and loss ----------------------------------------


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


# --- Your code ----------------------------------------------------------------


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone, stacked on axis 0."""

    def example_loss(p, xi, yi):
        return loss_fn(p, xi[None, :], yi[None])

    return jax.vmap(jax.grad(example_loss), in_axes=(None, 0, 0))(params, x, y)


def _is_layer(node):
    return isinstance(node, dict) and set(node) == {"w", "b"}


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""
    # one (B,) norm per layer, each over that layer's weights and biases
    layer_norms = jax.tree.map(jax.vmap(optax.tree.norm), grads, is_leaf=_is_layer)
    return jax.tree.reduce(jnp.add, layer_norms)


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.argmax(norms))
