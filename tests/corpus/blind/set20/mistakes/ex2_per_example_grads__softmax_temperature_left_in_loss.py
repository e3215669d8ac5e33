# BLIND-SET: 20
# EXERCISE: ex2
# WHAT: the file's loss_fn divides the logits by a leftover distillation TEMPERATURE = 2.0 before log_softmax, so every per-example gradient (and norm) is that of a tempered cross-entropy, not the lesson's loss
# SHOULD-SAY: vmap over grad, the batching of x and y, the norms over all leaves and the int index are all right, but the loss being differentiated is not the lesson's: log_softmax(logits / 2.0) is a temperature-softened cross-entropy, so each per-example gradient is wrong (roughly halved and reshaped); use jax.nn.log_softmax(logits) with no temperature

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


TEMPERATURE = 2.0  # softens the softmax (from the distillation notebook)


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    log_probs = jax.nn.log_softmax(logits / TEMPERATURE)
    return -jnp.mean(jnp.sum(log_probs * jax.nn.one_hot(y, 10), axis=-1))


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""

    def single_example_loss(params, xi, yi):
        return loss_fn(params, xi[None], yi[None])

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
