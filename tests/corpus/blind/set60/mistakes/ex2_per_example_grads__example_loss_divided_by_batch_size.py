# BLIND-SET: 60
# EXERCISE: ex2
# WHAT: per_example_grads vmaps grad over a hand-written per-example loss (max-shifted log-softmax, the label's entry taken), but divides it by batch_size = x.shape[0], taken from the enclosing function, as if it were still the batch mean. Every per-example gradient is therefore 1/B of the gradient of that example's own loss. Exact at B = 1. Off by max |diff| 2.9 to 3.3 at B = 3, and 4.6 to 6.5 at B = 32/100/128, with relative errors of 0.67/0.88/0.97/0.99 at B = 3/8/32/128. Slice 31 of a B = 32 batch differs from jax.grad(loss_fn)(params, x[31:32], y[31:32]) by up to 2.9. Leaves keep leading axis B, and jit equals eager. per_example_grad_norms is correct (bit-identical on the reference's grads). largest_gradient_example matched 24/24, as an int, because the scaling is the same for every example.
# SHOULD-SAY: Slice i must be the gradient of the loss on example i alone, but your per-example loss is divided by the batch size, so every gradient is B times too small (exact only when B = 1). A single example's mean loss is just its own loss: do not divide by x.shape[0] inside the function you vmap.
"""Exercise 2: per-example gradients with jax.vmap."""

import jax
import jax.numpy as jnp

# --- Given: the lesson's model and loss ----------------------------------------


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last.

    ``params`` is ``{"layer1": {"w": (784, 256), "b": (256,)}, ...,
    "layer3": {"w": (128, 10), "b": (10,)}}``; ``x`` is float32 ``(B, 784)``.
    """
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


# --- My code ------------------------------------------------------------------


def log_softmax(logits):
    # log of my softmax, written so that exp cannot overflow
    shifted = logits - jnp.max(logits)
    return shifted - jnp.log(jnp.sum(jnp.exp(shifted)))


def per_example_grads(params, x, y):
    batch_size = x.shape[0]

    def loss_one_example(params, x_one, y_one):
        logits = forward(params, x_one)
        log_probs = log_softmax(logits)
        # cross-entropy of this example, averaged over the batch
        total = -log_probs[y_one]
        return total / batch_size

    grad_one = jax.grad(loss_one_example)
    return jax.vmap(grad_one, in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    leaves = jax.tree.leaves(grads)
    batch_size = leaves[0].shape[0]

    total = jnp.zeros(batch_size)
    for leaf in leaves:
        squares = leaf.reshape(batch_size, -1) ** 2
        total = total + jnp.sum(squares, axis=1)
    return jnp.sqrt(total)


def largest_gradient_example(params, x, y):
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    values = norms.tolist()

    best_index = 0
    best_value = values[0]
    for i in range(len(values)):
        if values[i] > best_value:
            best_value = values[i]
            best_index = i
    return int(best_index)
