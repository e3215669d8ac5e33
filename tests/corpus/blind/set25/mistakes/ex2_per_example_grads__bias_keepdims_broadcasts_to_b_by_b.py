# BLIND-SET: 25
# EXERCISE: ex2
# WHAT: per_example_grad_norms sums squares layer by layer, weights with axis=(1, 2) giving (B,) but biases with axis=-1, keepdims=True giving (B, 1); the sum broadcasts silently to a (B, B) matrix whose entry [i, j] mixes example j's weights with example i's biases. The norms have shape (B, B) instead of (B,), and largest_gradient_example returns a flattened index that can exceed B - 1.
# SHOULD-SAY: Reduce every leaf to shape (B,) before adding: keepdims=True on the bias sums turns them into a column and broadcasting against the (B,) weight sums builds a B x B matrix. Drop keepdims (sum over all axes but the first of every leaf), or vmap optax.global_norm over the gradient pytree.
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
    sq = 0.0
    for layer in grads.values():
        sq = sq + jnp.sum(layer["w"] ** 2, axis=(1, 2)) + jnp.sum(layer["b"] ** 2, axis=-1, keepdims=True)
    return jnp.sqrt(sq)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
