# BLIND-SET: 22
# EXERCISE: ex2
# WHAT: the single-example loss multiplies loss_fn by xi.shape[0] to "undo the batch mean", but xi is one unbatched row, so every per-example gradient is 784 times too large (norms too, argmax unchanged).
# SHOULD-SAY: vmap over grad with in_axes=(None, 0, 0) is set up right and the norms and the largest index are computed correctly, but every per-example gradient is scaled by 784: inside the vmapped function xi is a single row of shape (784,), so xi.shape[0] is the number of features, not a batch size. loss_fn on xi[None] already is the loss of that one example; remove the multiplication.
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
        # loss_fn averages over the batch; multiply back so each example counts fully.
        return loss_fn(params, xi[None], yi[None]) * xi.shape[0]

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
