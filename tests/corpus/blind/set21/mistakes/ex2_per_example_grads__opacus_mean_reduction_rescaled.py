# BLIND-SET: 21
# EXERCISE: ex2
# WHAT: the single-example loss is multiplied by the batch size B (x.shape[0]) "to undo the mean" as Opacus does for loss_reduction="mean", so every per-example gradient (and norm) is B times too large; the argmax index is unchanged.
# SHOULD-SAY: the vmap over jax.grad, the leading axis and the largest-example index are right, but every per-example gradient is scaled by the batch size: loss_fn on a one-example batch is already that example's loss, so there is no 1/B to undo. Drop the `* batch_size` factor; the norms will then be correct too.
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
    batch_size = x.shape[0]

    def single_example_loss(params, xi, yi):
        # loss_fn averages over the batch: undo the 1/B, as Opacus does for loss_reduction="mean".
        return loss_fn(params, xi[None], yi[None]) * batch_size

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))

