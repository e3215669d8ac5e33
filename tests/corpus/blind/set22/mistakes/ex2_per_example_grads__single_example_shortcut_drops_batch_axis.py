# BLIND-SET: 22
# EXERCISE: ex2
# WHAT: per_example_grads short-cuts a batch of one to a plain jax.grad(loss_fn)(params, x, y), so for B == 1 the leaves have no leading batch axis (w1 is (784, 256), not (1, 784, 256)); the vmapped path for B >= 2 is right.
# SHOULD-SAY: the vmap-over-grad per-example gradients, the global norms and the index are right for batches of two or more, but for a batch of one the B == 1 shortcut returns the ordinary batch gradient without the leading axis of size 1 (so per_example_grad_norms then breaks). Drop the shortcut: the vmapped version already handles B == 1 and keeps the leading axis.
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
    if x.shape[0] == 1:
        # One example: its gradient is just the ordinary gradient, no need to vmap.
        return jax.grad(loss_fn)(params, x, y)

    def single_example_loss(params, xi, yi):
        return loss_fn(params, xi[None], yi[None])

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
