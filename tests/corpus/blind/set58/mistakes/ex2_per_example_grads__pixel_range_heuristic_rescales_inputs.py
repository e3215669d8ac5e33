# BLIND-SET: 58
# EXERCISE: ex2
# WHAT: per_example_grads passes x through _as_inputs, which accepts raw 0..255 pixels by dividing the whole batch by 255 whenever jnp.max(x) > 1 (a jnp.where, so it also runs under jit). For inputs in [0, 1] (U[0,1), MNIST scaled to [0, 1]) and for 0.1*N(0,1), everything is bit-identical to the reference. For N(0,1) inputs, or standardised MNIST, whose max exceeds 1, the gradients are those of x / 255: max |diff| 3.2 to 5.5 at B = 1/3/32/100/128. largest_gradient_example then picks a different example at B = 32/100/128 (4 vs 2, 43 vs 113, 49 vs 113, 60 vs 92), and one example's gradient depends on whether some other row of the batch exceeds 1. per_example_grad_norms is exact, shapes and jit are right, and the index is an int.
# SHOULD-SAY: per_example_grads must differentiate the loss at the x it is given, but yours divides the whole batch by 255 whenever any value exceeds 1 (your raw-pixel heuristic). Float inputs outside [0, 1], such as standardised or N(0, 1) data, get the gradients of x/255 and the wrong largest example. Don't rescale the inputs; the contract's x is float32 and is used as given.
"""Exercise 2: per-example gradients with jax.vmap, for any loss, pytree and batch layout.

``per_example_grads`` takes an optional ``loss`` (default: the lesson's
``loss_fn``), accepts float or raw 0..255 pixel inputs, and works for any
number of leading batch axes on ``x``/``y``;
``per_example_grad_norms`` works for any pytree of per-example gradients and
any ``ord``; ``largest_gradient_example`` returns an ``int`` (a tuple of ints
for several batch axes).
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


def _param_dtype(params):
    leaves = jax.tree.leaves(params)
    return jnp.result_type(*leaves) if leaves else jnp.float32


def _as_inputs(x, dtype):
    """Inputs as floats in the lesson's [0, 1] range.

    Accepts the lesson's float images as well as raw MNIST pixels (uint8 or
    float 0..255, e.g. straight from a dataset loader): anything whose values
    go above 1 is taken to be 0..255 and divided by 255. Written with
    ``jnp.where`` so it also works on traced values under jit.
    """
    x = jnp.asarray(x).astype(dtype)
    return jnp.where(jnp.max(x) > 1.0, x / 255.0, x)


def per_example_grads(params, x, y, *, loss=None, batch_ndim=None, **loss_kwargs):
    """The gradient of ``loss`` on each example alone, stacked on the batch axes.

    ``x`` has ``batch_ndim`` leading batch axes (default ``y.ndim``, i.e. one
    for the lesson's int labels); the result has those axes in front of every
    leaf of ``params``. Extra keyword arguments go to ``loss``.
    """
    loss = loss_fn if loss is None else loss
    x = _as_inputs(x, jnp.result_type(_param_dtype(params), jnp.float32))
    y = jnp.asarray(y)
    batch_ndim = y.ndim if batch_ndim is None else batch_ndim

    def single_example_loss(p, xi, yi):
        return loss(p, xi[None], yi[None], **loss_kwargs)

    grad_fn = jax.grad(single_example_loss)
    for _ in range(batch_ndim):
        grad_fn = jax.vmap(grad_fn, in_axes=(None, 0, 0))
    return grad_fn(params, x, y)


def per_example_grad_norms(grads, *, batch_ndim=1, ord=2):
    """The ``ord``-norm over all leaves (weights and biases) of each example's gradient.

    Returns an array with the ``batch_ndim`` leading batch axes of the leaves
    (``(B,)`` for the lesson).
    """
    leaves = jax.tree.leaves(grads)
    if not leaves:
        raise ValueError("grads has no leaves")
    batch_shape = leaves[0].shape[:batch_ndim]
    dtype = jnp.result_type(*leaves)
    total = jnp.zeros(batch_shape, dtype)
    for leaf in leaves:
        flat = leaf.reshape(batch_shape + (-1,)).astype(dtype)
        total = total + jnp.sum(jnp.abs(flat) ** ord, axis=-1)
    return jnp.sqrt(total) if ord == 2 else total ** (1.0 / ord)


def largest_gradient_example(params, x, y, **kwargs):
    """The index of the example with the largest gradient norm, as Python int(s)."""
    y = jnp.asarray(y)
    grads = per_example_grads(params, x, y, **kwargs)
    norms = per_example_grad_norms(grads, batch_ndim=y.ndim)
    index = tuple(int(i) for i in jnp.unravel_index(jnp.argmax(norms), norms.shape))
    return index[0] if len(index) == 1 else index
