# BLIND-SET: 39
# EXERCISE: ex2
# WHAT: per_example_grads differentiates a loss written on a flat list of leaves built as [w, b] per layer, then rebuilds the pytree with jax.tree_util.tree_unflatten(tree_structure(params), flat_grads); the treedef orders each layer's leaves b then w (dict keys are sorted), so every layer's "w" slot receives the bias gradient (B, out) and its "b" slot the weight gradient (B, in, out). Leaf shapes and values no longer match params leaf by leaf; the global norms and the argmax index are unchanged.
# SHOULD-SAY: Your gradient pytree has "w" and "b" swapped in every layer (grads["layer1"]["w"] has shape (B, 256)). tree_unflatten fills leaves in the treedef's own order, which for a dict is sorted keys ("b" before "w"), not the [w, b] order you flattened by hand. Flatten with jax.tree_util.tree_flatten(params) and unflatten with the same treedef, or just take jax.grad with respect to the params dict itself.
"""Exercise 2: per-example gradients over a flat list of leaves."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


_LAYERS = ("layer1", "layer2", "layer3")


def _flat_loss(flat, xi, yi):
    """Loss of one example with params given as [w1, b1, w2, b2, w3, b3]."""
    params = {name: {"w": flat[2 * i], "b": flat[2 * i + 1]} for i, name in enumerate(_LAYERS)}
    return loss_fn(params, xi[None], yi[None])


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone, stacked on axis 0."""
    flat = [leaf for name in _LAYERS for leaf in (params[name]["w"], params[name]["b"])]
    flat_grads = jax.vmap(jax.grad(_flat_loss), in_axes=(None, 0, 0))(flat, x, y)
    treedef = jax.tree_util.tree_structure(params)
    return jax.tree_util.tree_unflatten(treedef, flat_grads)


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""
    per_leaf = jax.tree_util.tree_map(lambda g: jnp.sum(jnp.square(g), axis=tuple(range(1, g.ndim))), grads)
    return jnp.sqrt(sum(jax.tree_util.tree_leaves(per_leaf)))


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
