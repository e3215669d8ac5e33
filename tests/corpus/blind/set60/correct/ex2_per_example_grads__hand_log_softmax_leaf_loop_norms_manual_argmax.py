# BLIND-SET: 60
# EXERCISE: ex2
# WHAT: correct: the per-example loss uses a hand-written log-softmax (max-shifted log-sum-exp) and a hand-written one-hot (arange == label) on a single un-batched example (784,). per_example_grads is jax.vmap(jax.grad(loss_one_example), in_axes=(None, 0, 0)). The norms loop over jax.tree.leaves, accumulate row-wise sums of squares into a (B,) total, then take sqrt. largest_gradient_example converts the norms with .tolist(), finds the largest with a hand loop (first maximum wins, like argmax) and returns a Python int. Measured against the reference at B = 1, 3, 8, 32, 100, 128, with x scaled by 1 and 0.1 and zero/non-zero biases: grads within 9.5e-7 abs (3e-7 relative), every leaf has leading axis B, and norms agree within 3.8e-6 abs (1e-7 relative) and are mostly bit-identical. The index matched in 24/24 cases and is an int. jit equals eager exactly. Timing scales like the reference (B 32 → 256: about 35 → 300 ms vs 44 → 280 to 360 ms).
# SHOULD-SAY: full marks
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


def one_hot(label, num_classes=10):
    # 1.0 at position `label`, 0.0 everywhere else
    positions = jnp.arange(num_classes)
    return (positions == label).astype(jnp.float32)


def log_softmax(logits):
    # subtract the biggest logit first so exp does not overflow
    biggest = jnp.max(logits)
    shifted = logits - biggest
    total = jnp.sum(jnp.exp(shifted))
    return shifted - jnp.log(total)


def loss_one_example(params, x_one, y_one):
    # x_one is one image (784,), y_one is one label
    logits = forward(params, x_one)
    log_probs = log_softmax(logits)
    return -jnp.sum(log_probs * one_hot(y_one))


def per_example_grads(params, x, y):
    # grad of the loss of one example, then vmap it over the examples
    # (params are the same for everybody, so in_axes is None for them)
    grad_one = jax.grad(loss_one_example)
    grad_all = jax.vmap(grad_one, in_axes=(None, 0, 0))
    return grad_all(params, x, y)


def per_example_grad_norms(grads):
    leaves = jax.tree.leaves(grads)
    batch_size = leaves[0].shape[0]

    # add up the squares of every leaf, one total per example
    total = jnp.zeros(batch_size)
    for leaf in leaves:
        flat = leaf.reshape(batch_size, -1)
        total = total + jnp.sum(flat * flat, axis=1)

    result = jnp.sqrt(total)
    return result


def largest_gradient_example(params, x, y):
    grads = per_example_grads(params, x, y)
    norms = per_example_grad_norms(grads)
    norm_list = norms.tolist()

    # find the biggest one by hand
    best_index = 0
    best_value = norm_list[0]
    for i in range(len(norm_list)):
        if norm_list[i] > best_value:
            best_value = norm_list[i]
            best_index = i
    return int(best_index)
