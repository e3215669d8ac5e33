# BLIND-SET: 13
# EXERCISE: ex2
# WHAT: per_example_grad_norms takes, for each example, the largest of the per-leaf L2 norms instead of combining all leaves into one global L2 norm.
# SHOULD-SAY: per_example_grads is correct (vmap over grad, leading axis B, slices match single-example gradients); per_example_grad_norms has the right (B,) shape but returns max over leaves of each leaf's norm, not sqrt(sum over all leaves of squared entries), so values are too small; largest_gradient_example returns a Python int and may or may not pick the right index.
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
    leaf_norms = [jnp.sqrt(jnp.sum(g.reshape(g.shape[0], -1) ** 2, axis=1)) for g in jax.tree.leaves(grads)]
    return jnp.max(jnp.stack(leaf_norms), axis=0)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
