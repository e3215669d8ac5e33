# BLIND-SET: 18
# EXERCISE: ex2
# WHAT: adapted from BADGE-style "gradient embedding" code, each example's gradient is taken against the model's own predicted class (argmax of the logits) instead of the true label y.
# SHOULD-SAY: the vmap-over-grad structure, leading axis of size B, norms over all leaves and the Python-int index are right, but the gradients are of the loss at the predicted label, not at y: they only match on examples the model already classifies correctly (and the largest-gradient example changes accordingly); use y[i] in the per-example loss instead of argmax(logits).
"""Exercise 2: per-example gradients with jax.vmap."""

import jax
import jax.numpy as jnp

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


def _example_loss(params, xi, yi):
    """Cross-entropy of one example, against the class the model believes in."""
    logits = forward(params, xi[None, :])
    target = jax.lax.stop_gradient(jnp.argmax(logits, axis=-1))
    return loss_fn(params, xi[None, :], target)


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone."""
    grad_one = jax.grad(_example_loss)
    return jax.vmap(grad_one, in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""
    leaves = jax.tree.leaves(grads)
    B = leaves[0].shape[0]
    flat = jnp.concatenate([leaf.reshape(B, -1) for leaf in leaves], axis=1)
    return jnp.linalg.norm(flat, axis=1)


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.argmax(norms))
