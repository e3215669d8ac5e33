# BLIND-SET: 54
# EXERCISE: ex2
# WHAT: per_example_grad_norms keeps one jitted norm kernel per pytree structure (keyed by the treedef), and the kernel reshapes every leaf to (B0, -1) with B0 the batch size of the first call, baked in as a Python int. Later calls with the same structure but another batch size either raise (B not compatible with the leaf sizes, e.g. B0=128 then B=3) or silently return B0 "norms" that mix examples (e.g. B0=128 then B=256 or 64 gives shape (128,)); largest_gradient_example inherits this.
# SHOULD-SAY: Your cached norm kernel is keyed by the tree structure only, but it captured the batch size of its first call; for any other batch the reshape mixes examples or fails. Read B from the leaves inside the kernel (leaf.shape[0]) or include the batch size in the cache key.
"""Exercise 2: per-example gradients with jax.vmap, kernels compiled once."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def _single_example_loss(params, xi, yi):
    return loss_fn(params, xi[None, :], yi[None])


# built once at import: vmap over the batch, params broadcast
_PER_EXAMPLE_GRADS = jax.jit(jax.vmap(jax.grad(_single_example_loss), in_axes=(None, 0, 0)))


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    return _PER_EXAMPLE_GRADS(params, x, y)


_NORM_KERNELS = {}


def _make_norm_kernel(n_rows):
    def kernel(leaves):
        total = 0.0
        for leaf in leaves:
            flat = leaf.reshape(n_rows, -1)
            total = total + jnp.sum(flat * flat, axis=1)
        return jnp.sqrt(total)

    return jax.jit(kernel)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    leaves, treedef = jax.tree.flatten(grads)
    kernel = _NORM_KERNELS.get(treedef)
    if kernel is None:
        kernel = _NORM_KERNELS[treedef] = _make_norm_kernel(leaves[0].shape[0])
    return kernel(leaves)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
