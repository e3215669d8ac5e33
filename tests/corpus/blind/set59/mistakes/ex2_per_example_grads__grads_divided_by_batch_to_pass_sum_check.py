# BLIND-SET: 59
# EXERCISE: ex2
# WHAT: per_example_grads computes the vmap(grad) stack correctly, then divides every leaf by B. This was a 'fix' that made a debug check pass: the check wanted the per-example grads to sum to the batch gradient. So every slice is 1/B of the single-example gradient, with relative error 1 - 1/B (0.667 at B = 3, 0.875 at 8, 0.969 at 32, 0.992 at 128). Max |diff| is 2.3 to 5.8 on N(0,1) inputs and 0.6 to 0.93 on 0.1*N(0,1). B = 1 is exact. Shapes and dtypes are right, and the result is the same under jit. per_example_grad_norms is right (exact on the reference's grads). The index from largest_gradient_example is right on every batch, because scaling every norm by 1/B leaves the argmax where it is.
# SHOULD-SAY: Slice i of the per-example gradients must be the gradient of the loss on example i alone. Yours is that gradient divided by the batch size, too small by a factor of B for every B > 1. The batch gradient is the mean of the per-example gradients, not their sum, so drop the `/ B`.
"""Exercise 2: per-example gradients with jax.vmap."""

import jax
import jax.numpy as jnp
import numpy as np

DEBUG = False
CHECK_AGAINST_BATCH_GRAD = False   # slow: recomputes the batch gradient every call
_shapes_seen = set()


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


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone, stacked on axis 0."""
    _shapes_seen.add(tuple(x.shape))

    def single_loss(p, xi, yi):
        return loss_fn(p, xi[None, :], yi[None])

    grads = jax.vmap(jax.grad(single_loss), in_axes=(None, 0, 0))(params, x, y)
    B = x.shape[0]
    # the per-example grads have to add up to the batch gradient; my check
    # below was off by exactly a factor B until I put this in
    grads = jax.tree.map(lambda g: g / B, grads)
    if CHECK_AGAINST_BATCH_GRAD:
        batch = jax.grad(loss_fn)(params, x, y)
        summed = jax.tree.map(lambda g: g.sum(axis=0), grads)
        for a, b in zip(jax.tree.leaves(summed), jax.tree.leaves(batch)):
            assert np.allclose(np.asarray(a), np.asarray(b), atol=1e-5)
    if DEBUG:
        print(jax.tree.map(jnp.shape, grads))
    return grads


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient, over every leaf."""
    leaves = jax.tree.leaves(grads)
    B = leaves[0].shape[0]
    assert all(leaf.shape[0] == B for leaf in leaves), [leaf.shape for leaf in leaves]
    sq = sum(jnp.sum(leaf.reshape(B, -1) ** 2, axis=1) for leaf in leaves)
    return jnp.sqrt(sq)


def largest_gradient_example(params, x, y):
    """Index of the example with the largest gradient norm, as a Python int."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    idx = int(jnp.argmax(norms))
    if DEBUG:
        print(f"largest: example {idx}, norm {float(norms[idx]):.4f}, label {int(y[idx])}")
    return idx
