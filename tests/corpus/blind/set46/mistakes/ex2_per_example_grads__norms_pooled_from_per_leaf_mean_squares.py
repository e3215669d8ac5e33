# BLIND-SET: 46
# EXERCISE: ex2
# WHAT: per_example_grad_norms pools per-leaf mean squares, sqrt(sum over leaves of mean(g_leaf^2)), instead of the total sum of squares, so each leaf's contribution is divided by its size (layer1.w by 200704, layer3.b by 10); norms are far too small and dominated by the bias leaves, and the largest-gradient index can change.
# SHOULD-SAY: the norms average the squares within each leaf (a mean square per leaf) instead of summing them: the global L2 norm is sqrt of the sum of every squared element over all leaves, with no division by the leaf sizes (e.g. jax.vmap(optax.tree.norm) or summing jnp.sum(g**2) per example over leaves).
"""Exercise 2: per-example gradients and their magnitudes."""

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


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone: B samples of the gradient."""

    def single_example_loss(params, xi, yi):
        return loss_fn(params, xi[None], yi[None])

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global magnitude of each example's gradient, pooled over leaves.

    Each leaf contributes its second moment (mean of squares over its
    elements); the pooled second moments are summed and square-rooted.
    """
    leaves = jax.tree.leaves(grads)
    n = leaves[0].shape[0]
    pooled = sum(jnp.mean(jnp.square(leaf.reshape(n, -1)), axis=1) for leaf in leaves)
    return jnp.sqrt(pooled)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
