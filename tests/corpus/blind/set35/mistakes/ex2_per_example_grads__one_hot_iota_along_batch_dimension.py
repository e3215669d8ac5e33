# BLIND-SET: 35
# EXERCISE: ex2
# WHAT: the single-example loss builds its one-hot target with lax.broadcasted_iota along dimension 0 (the batch axis of the (1, 10) logits) instead of dimension 1 (classes); with one example that iota is all zeros, so the "one-hot" row is all ones when the label is 0 and all zeros otherwise. Per-example gradients are wrong (zero for every example whose label is not 0), and so are the norms and the index.
# SHOULD-SAY: The class index must run along the class axis: use lax.broadcasted_iota(jnp.int32, logp.shape, 1) (or jax.nn.one_hot(yi, 10)); with dimension 0 the comparison is against the row number, so the target selects the wrong log-probabilities.
"""Exercise 2 (reference): per-example gradients with jax.vmap over jax.grad."""

import jax
import jax.numpy as jnp
import optax
from jax import lax

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
        xb = lax.expand_dims(xi, (0,))
        logp = jax.nn.log_softmax(forward(params, xb))
        classes = lax.broadcasted_iota(jnp.int32, logp.shape, 0)
        target = lax.convert_element_type(lax.eq(classes, lax.broadcast_in_dim(yi, logp.shape, ())), logp.dtype)
        return -jnp.sum(logp * target) / xb.shape[0]

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
