# BLIND-SET: 59
# EXERCISE: ex2
# WHAT: per_example_grad_norms converts each leaf to a float64 NumPy array on the host and returns np.sqrt of NumPy sums. This is left from a comparison with a float64 Python-loop version. Eagerly, the result is a numpy.ndarray of dtype float64, not a float32 JAX array. Its values agree with the reference within 1.3e-7 relative. Under jax.jit it raises TracerArrayConversionError. Grads are bit-identical, and the index is the right Python int.
# SHOULD-SAY: per_example_grad_norms must return a float32 JAX array of shape (B,) and must work under jax.jit. Yours returns a float64 NumPy array and fails when jitted, because np.asarray is called on a tracer. Keep the computation in jax.numpy: jnp.sqrt of a jnp.sum over the leaves.
"""Exercise 2: per-example gradients with jax.vmap."""

import jax
import jax.numpy as jnp
import numpy as np

DEBUG = False
LOOP_CHECK = False   # compare against a slow Python loop over examples


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

    def one(p, xi, yi):
        return loss_fn(p, xi[None], yi[None])

    grads = jax.vmap(jax.grad(one), in_axes=(None, 0, 0))(params, x, y)
    if LOOP_CHECK:
        for i in range(x.shape[0]):
            gi = jax.grad(loss_fn)(params, x[i:i + 1], y[i:i + 1])
            err = max(float(jnp.max(jnp.abs(a[i] - b)))
                      for a, b in zip(jax.tree.leaves(grads), jax.tree.leaves(gi)))
            print(f"example {i}: max err {err:.2e}")
    return grads


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient, over every leaf."""
    # float64 on the host so the numbers agree with my loop version to 1e-12
    leaves = [np.asarray(g, dtype=np.float64) for g in jax.tree.leaves(grads)]
    B = leaves[0].shape[0]
    sq = sum(np.sum(leaf.reshape(B, -1) ** 2, axis=1) for leaf in leaves)
    norms = np.sqrt(sq)
    if DEBUG:
        print("norms:", np.round(norms, 4))
    return norms


def largest_gradient_example(params, x, y):
    """Index of the example with the largest gradient norm, as a Python int."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(np.argmax(norms))
