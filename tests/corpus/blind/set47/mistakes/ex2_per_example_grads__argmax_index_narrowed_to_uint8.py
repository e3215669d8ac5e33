# BLIND-SET: 47
# EXERCISE: ex2
# WHAT: largest_gradient_example narrows the argmax to uint8 ("the lesson batch is 128, an index fits in a byte") before int(). For batches larger than 256 an argmax at index i >= 256 comes back as i mod 256 (e.g. with B = 300 an argmax at 290 comes back as 34). Gradients, norms and every index below 256 are right.
# SHOULD-SAY: For batches of more than 256 examples the returned index is wrong (it wraps modulo 256): the argmax is cast to uint8, which truncates it. Keep the index in a type wide enough for any B: return int(jnp.argmax(norms)) without the narrowing cast.
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
    sq = [jnp.sum(jnp.square(leaf.reshape(n_rows, -1)), axis=1) for leaf in leaves]
    return jnp.sqrt(jnp.sum(jnp.stack(sq, axis=0), axis=0))


IDX_DTYPE = jnp.uint8  # batch of 128 in the lesson: an index fits in one byte


def largest_gradient_example(params, x, y):
    """Index (Python int) of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    idx = jnp.argmax(norms).astype(IDX_DTYPE)
    return int(idx)
