# BLIND-SET: 48
# EXERCISE: ex2
# WHAT: The per-example loss is optax.losses.kl_divergence(logits, one_hot): the first argument of kl_divergence must be log-probabilities, but it gets the raw logits, so the loss is -logit[y] (no log-softmax normaliser) and every per-example gradient is wrong (the last layer's gradient is -one_hot instead of softmax - one_hot). The norms and the index follow from the wrong gradients.
# SHOULD-SAY: Your per-example loss is not the lesson's cross-entropy: optax.losses.kl_divergence(log_predictions, targets) expects log-probabilities, and you pass raw logits. Pass jax.nn.log_softmax(logits) (or use optax.losses.softmax_cross_entropy_with_integer_labels(logits, y)), or just call the given loss_fn on a batch of one.
"""Exercise 2: per-example gradients with jax.vmap and an optax loss."""

import jax
import jax.numpy as jnp
import optax

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
    """Cross-entropy of one example as KL(one_hot || model) (the entropy of a one-hot is 0)."""
    logits = forward(params, xi)
    return optax.losses.kl_divergence(logits, jax.nn.one_hot(yi, 10))


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone, stacked on axis 0."""
    return jax.vmap(jax.grad(_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""
    return jax.vmap(optax.tree.norm)(grads)


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.argmax(norms))
