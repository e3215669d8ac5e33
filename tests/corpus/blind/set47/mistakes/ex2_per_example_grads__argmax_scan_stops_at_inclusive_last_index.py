# BLIND-SET: 47
# EXERCISE: ex2
# WHAT: largest_gradient_example scans the norms with `last = B - 1` (an inclusive index) used as the exclusive stop of range(1, last), so the last example is never compared: whenever example B-1 has the largest norm the function returns the index of the runner-up instead (and for B = 2 it always returns 0). Gradients and norms are right.
# SHOULD-SAY: The index is wrong when the largest gradient belongs to the last example of the batch: the scan stops one short. `last = B - 1` is an inclusive bound but range() excludes its stop; loop over range(1, B) (or use int(jnp.argmax(norms))).
import jax
import jax.numpy as jnp
import numpy as np

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


# --- Your code ----------------------------------------------------------------


def _one_example_loss(params, x_row, y_scalar):
    # x_row: (D,), y_scalar: () -> view them as a batch of exactly one row
    d = x_row.shape[0]
    return loss_fn(params, x_row.reshape(1, d), y_scalar.reshape(1))


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone, stacked on axis 0.

    params is broadcast (in_axes None); x and y are mapped along axis 0, so
    every leaf of the result is (B, *leaf.shape).
    """
    grad_one = jax.grad(_one_example_loss)
    return jax.vmap(grad_one, in_axes=(None, 0, 0), out_axes=0)(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over all leaves (weights and biases)."""
    leaves = jax.tree.leaves(grads)
    n_rows = leaves[0].shape[0]
    acc = jnp.zeros((n_rows,), dtype=jnp.float32)
    for leaf in leaves:
        flat = leaf.reshape(n_rows, -1)  # row stride = leaf.size // B
        acc = acc + jnp.sum(flat * flat, axis=1)
    return jnp.sqrt(acc)


def largest_gradient_example(params, x, y):
    """Index (Python int) of the example with the largest gradient norm."""
    norms = np.asarray(per_example_grad_norms(per_example_grads(params, x, y)))
    n = int(norms.shape[0])
    first, last = 0, n - 1  # valid indices: first .. last (inclusive)
    best_i = first
    best = norms[first]
    for i in range(first + 1, last):
        if norms[i] > best:
            best = norms[i]
            best_i = i
    return int(best_i)
