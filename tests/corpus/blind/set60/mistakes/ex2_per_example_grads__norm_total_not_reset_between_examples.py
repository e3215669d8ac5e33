# BLIND-SET: 60
# EXERCISE: ex2
# WHAT: per_example_grads is right: vmap over grad, with a hand-written one-hot built by append/stack (max |diff| 0 vs the reference). per_example_grad_norms loops over examples and leaves, but `total = 0.0` sits above the example loop and is never reset. Entry i is therefore sqrt(sum over j <= i of ||g_j||^2), a running total: entry 0 is right, and the rest only grow (up to 10× at B = 32 and 31× at B = 128). As a result largest_gradient_example always returns B - 1: it matched the reference in 4/24 cases (only the 4 B = 1 cases), and returned 2/7/31/99/127 instead of e.g. 1/1/29/10/108. The result is still a Python int. The bug is the same under jit (jit norms equal eager norms). Grads, shapes and dtypes are right.
# SHOULD-SAY: Each example's norm must use only its own gradient, but the accumulator `total` is set to 0 once, before the loop over examples, and never reset. Each norm therefore includes every earlier example, the norms only increase, and the 'largest' example is always the last one. Reset total = 0.0 at the start of each example (or compute all the norms at once, leaf by leaf, with a sum over axis 1).
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
    result = []
    for c in range(num_classes):
        result.append(jnp.where(label == c, 1.0, 0.0))
    return jnp.stack(result)


def loss_one_example(params, x_one, y_one):
    # same loss as loss_fn, for one image (784,) and one label
    logits = forward(params, x_one)
    log_probs = jax.nn.log_softmax(logits)
    return -jnp.sum(log_probs * one_hot(y_one))


def per_example_grads(params, x, y):
    grad_one = jax.grad(loss_one_example)
    return jax.vmap(grad_one, in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    leaves = jax.tree.leaves(grads)
    batch_size = leaves[0].shape[0]

    result = []
    total = 0.0
    for i in range(batch_size):
        # sum of squares of everything in example i
        for leaf in leaves:
            total = total + jnp.sum(leaf[i] ** 2)
        result.append(jnp.sqrt(total))
    return jnp.stack(result)


def largest_gradient_example(params, x, y):
    grads = per_example_grads(params, x, y)
    norms = per_example_grad_norms(grads)

    best_index = 0
    for i in range(1, len(norms)):
        if float(norms[i]) > float(norms[best_index]):
            best_index = i
    return best_index
