# BLIND-SET: 60
# EXERCISE: ex2
# WHAT: per_example_grads is right (vmap over grad of the given loss_fn on a reshaped batch of one; bit-identical to the reference). per_example_grad_norms takes sqrt per leaf and adds the six per-leaf norms, where the global norm is sqrt(sum of all squares): sum of sqrt instead of sqrt of sum. The norms are too large: 1.62 to 1.78 times the true value on N(0,1) inputs and 2.14 to 2.32 times on inputs scaled by 0.1 (B = 1 to 128), max |diff| up to 38. The index is a Python int and matched the reference in 23/24 batches: with non-zero biases at B = 100 it returned 65 instead of 29. Grads, shapes, dtype and jit are right.
# SHOULD-SAY: The norm must be the global L2 norm over every leaf together: the square root of the sum of squares of all elements. Your code takes the norm of each leaf separately and adds those norms up, which overestimates it (here by 60 to 130%) and can change which example looks largest. Sum the squares over all leaves first, then take one square root.
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


def loss_one_example(params, x_one, y_one):
    # the lesson's loss_fn wants a batch, so make a batch of one
    x_batch = x_one.reshape(1, -1)
    y_batch = y_one.reshape(1)
    return loss_fn(params, x_batch, y_batch)


def per_example_grads(params, x, y):
    grad_one = jax.grad(loss_one_example)
    grad_all = jax.vmap(grad_one, in_axes=(None, 0, 0))
    result = grad_all(params, x, y)
    return result


def per_example_grad_norms(grads):
    leaves = jax.tree.leaves(grads)
    batch_size = leaves[0].shape[0]

    total = jnp.zeros(batch_size)
    for leaf in leaves:
        temp = leaf.reshape(batch_size, -1)
        # length of this leaf for each example
        leaf_norm = jnp.sqrt(jnp.sum(temp * temp, axis=1))
        total = total + leaf_norm
    return total


def largest_gradient_example(params, x, y):
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    norm_list = norms.tolist()

    best_index = 0
    for i in range(len(norm_list)):
        if norm_list[i] > norm_list[best_index]:
            best_index = i
    return int(best_index)
