# BLIND-SET: 36
# EXERCISE: ex2
# WHAT: The per-example loss is written like Keras categorical_crossentropy with from_logits=False (its default): the raw logits are normalised by their sum, clipped to [1e-7, 1-1e-7] and logged, so the per-example gradients (and hence norms and the argmax) are not those of the lesson's softmax cross-entropy.
# SHOULD-SAY: The per-example gradients do not match the gradient of the lesson's loss on each example: the network outputs logits, but the loss treats them as probabilities (Keras from_logits=False). Use the lesson's loss_fn (log_softmax of the logits) on xi[None], yi[None].
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
        # Keras categorical_crossentropy(y_true, y_pred) with from_logits=False (the default)
        output = forward(params, xi[None])
        output = output / jnp.sum(output, axis=-1, keepdims=True)
        output = jnp.clip(output, 1e-7, 1.0 - 1e-7)
        return -jnp.mean(jnp.sum(jax.nn.one_hot(yi[None], 10) * jnp.log(output), axis=-1))

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
