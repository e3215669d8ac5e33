# BLIND-SET: 47
# EXERCISE: ex2
# WHAT: Correct. per_example_grads is jax.vmap(jax.grad(one-example loss), in_axes=(None, 0, 0)); the norms pack every leaf of each example into one flat (B, total) buffer at offsets from an exclusive prefix sum of the leaf sizes (weights and biases), then take sqrt of the row sums of squares; largest_gradient_example scans the host copy of the norms with a bounds-checked loop over 0..B-1 (strict > keeps the first maximum, like argmax) and returns a Python int.
# SHOULD-SAY: Nothing to fix: gradients match per-example jax.grad leaf by leaf with a leading B axis, norms cover every leaf, and the index is a Python int at the largest norm.
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
    """Global L2 norm of each example's gradient over all leaves.

    Every leaf is viewed as (B, n_leaf) and copied into one flat (B, total)
    buffer at offset off[i] = n_0 + ... + n_{i-1}; the norm is the root of the
    row sum of squares.
    """
    leaves = jax.tree.leaves(grads)
    n_rows = leaves[0].shape[0]
    sizes = [int(np.prod(leaf.shape[1:], dtype=np.int64)) for leaf in leaves]
    offsets = [0] * len(sizes)
    for i in range(1, len(sizes)):  # exclusive prefix sum
        offsets[i] = offsets[i - 1] + sizes[i - 1]
    total = offsets[-1] + sizes[-1]
    buf = jnp.zeros((n_rows, total), dtype=jnp.float32)
    for leaf, off, n in zip(leaves, offsets, sizes):
        buf = buf.at[:, off:off + n].set(leaf.reshape(n_rows, n).astype(jnp.float32))
    sumsq = jnp.sum(buf * buf, axis=1)
    return jnp.sqrt(sumsq)


def largest_gradient_example(params, x, y):
    """Index (Python int, 0..B-1) of the example with the largest gradient norm."""
    norms = np.asarray(per_example_grad_norms(per_example_grads(params, x, y)))
    n = int(norms.shape[0])
    best_i = 0
    best = norms[0]
    i = 1
    while i < n:  # i in [1, n): every example after the first
        if norms[i] > best:
            best = norms[i]
            best_i = i
        i += 1
    return int(best_i)
