# BLIND-SET: 36
# EXERCISE: ex2
# WHAT: The per-example loss goes through a Keras-signature helper sparse_categorical_crossentropy(y_true, y_pred) but is called as (logits, labels): the label becomes the 'prediction' (log_softmax of a length-1 vector is 0) and the logits only enter through one_hot, so every per-example gradient is zero, the norms are 0 and the index is always 0.
# SHOULD-SAY: All per-example gradients are zero: the Keras-style loss helper takes (y_true, y_pred) but is called with (logits, labels). Call it as sparse_categorical_crossentropy(yi[None], logits) (or just use loss_fn(params, xi[None], yi[None])).
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


def sparse_categorical_crossentropy(y_true, y_pred):
    """Keras argument order: labels first, then logits (from_logits=True)."""
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(y_pred) * jax.nn.one_hot(y_true, 10), axis=-1))


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""

    def single_example_loss(params, xi, yi):
        return sparse_categorical_crossentropy(forward(params, xi[None]), yi[None])

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
