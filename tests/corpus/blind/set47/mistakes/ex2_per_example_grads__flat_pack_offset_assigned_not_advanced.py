# BLIND-SET: 47
# EXERCISE: ex2
# WHAT: per_example_grad_norms packs each example's leaves into a flat (B, total) buffer, but the write offset is updated with `off = n` instead of `off += n`, so each leaf is written at the previous leaf's size: later leaves overwrite parts of earlier ones and part of the buffer stays zero. For the lesson's params the norms are computed from a scrambled mix of layer1.w, layer2.w, layer3.w and the biases, so they differ from the true global norms (and the argmax can change). per_example_grads is right.
# SHOULD-SAY: The per-example norms are wrong: they do not equal sqrt of the sum of squares over every leaf. The flat-buffer offset is overwritten (`off = n`) instead of advanced (`off += n`), so leaves overlap in the buffer; advance the offset by each leaf's size (or sum per-leaf squares directly, e.g. jax.vmap(optax.tree.norm)).
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

    Every leaf is viewed as (B, n_leaf) and copied into one contiguous
    (B, total) buffer, like a packed struct; the norm is the root of the row
    sum of squares.
    """
    leaves = jax.tree.leaves(grads)
    n_rows = leaves[0].shape[0]
    total = 0
    for leaf in leaves:
        total += leaf.size // n_rows
    buf = jnp.zeros((n_rows, total), dtype=jnp.float32)
    off = 0
    for leaf in leaves:
        n = leaf.size // n_rows
        buf = buf.at[:, off:off + n].set(leaf.reshape(n_rows, n))
        off = n
    return jnp.sqrt(jnp.sum(buf * buf, axis=1))


def largest_gradient_example(params, x, y):
    """Index (Python int) of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.argmax(norms))
