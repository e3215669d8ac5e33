"""Exercise 2: per-example gradients with jax.vmap.

``jax.grad`` of a mean loss gives one gradient for the whole batch. Sometimes
you need one gradient per example: to find the examples that pull hardest on
the model, for differential privacy, or to debug a bad batch. Writing a Python
loop over examples is slow; ``jax.vmap`` over ``jax.grad`` computes all of
them in one vectorised call.

Write three functions:

* ``per_example_grads(params, x, y)``: one gradient per example.
* ``per_example_grad_norms(grads)``: the global L2 norm of each of them.
* ``largest_gradient_example(params, x, y)``: the index of the largest.

What the grader checks (run ``python -m grader --only ex2``):

* the gradients match a per-example computation on several batches, leaf by
  leaf, and have a leading axis of size B on every leaf;
* the computation is vectorised: its cost does not grow like a Python loop as
  the batch grows;
* the norms cover every leaf (weights and biases);
* the index is a plain Python ``int`` pointing at the largest norm;
* everything gives the same answers under ``jax.jit`` and leaves its inputs
  unmodified.

Then answer in ``answers.md``: which example has the largest gradient, and why?

Allowed imports: jax, jax.numpy, optax, numpy and the standard library.
"""

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


# --- Your code ----------------------------------------------------------------


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone.

    Args:
      params: the lesson's params dict.
      x: float32 ``(B, 784)``.
      y: int32 ``(B,)`` labels in ``0..9``.

    Returns:
      A pytree with the same structure as ``params`` in which every leaf has an
      extra leading axis of size B: slice ``i`` of it is
      ``jax.grad(loss_fn)(params, x[i:i+1], y[i:i+1])``. Use ``jax.vmap`` over
      ``jax.grad``, not a Python loop (mind which arguments are batched).
    """
    raise NotImplementedError(
        "per_example_grads is not implemented yet: see its docstring in ex2_per_example_grads.py"
    )


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient.

    Args:
      grads: the output of ``per_example_grads``.

    Returns:
      float32 ``(B,)``: entry ``i`` is the square root of the sum of squares of
      every element of every leaf (weights and biases) of example ``i``.
    """
    raise NotImplementedError(
        "per_example_grad_norms is not implemented yet: see its docstring in ex2_per_example_grads.py"
    )


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm.

    Returns:
      A Python ``int`` in ``0..B-1`` (not a JAX array).
    """
    raise NotImplementedError(
        "largest_gradient_example is not implemented yet: see its docstring in ex2_per_example_grads.py"
    )
