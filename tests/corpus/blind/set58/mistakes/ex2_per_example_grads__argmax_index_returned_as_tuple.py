# BLIND-SET: 58
# EXERCISE: ex2
# WHAT: largest_gradient_example supports any number of batch axes by returning tuple(int(i) for i in jnp.unravel_index(argmax(norms), norms.shape)). It never unwraps the one-axis case, so for the contract's (B,) batch it returns a 1-tuple such as (113,) instead of the int 113. The value inside is right on every batch tried (B = 1/3/32/100/128, N(0,1), U[0,1) and 0.1*N(0,1) inputs, zero and non-zero biases), but (113,) != 113 and int((113,)) raises TypeError. per_example_grads and per_example_grad_norms are bit-identical to the reference's, also under jit.
# SHOULD-SAY: largest_gradient_example must return a plain Python int, but yours returns a 1-tuple like (113,) (the unravel_index result for a single batch axis). Return int(jnp.argmax(norms)) (or unwrap index[0] when there is one batch axis).
"""Exercise 2: per-example gradients with jax.vmap, for any loss, pytree and batch layout.

``per_example_grads`` takes an optional ``loss`` (default: the lesson's
``loss_fn``) and works for any number of leading batch axes on ``x``/``y``;
``per_example_grad_norms`` works for any pytree of per-example gradients and
any ``ord``; ``largest_gradient_example`` returns the index as a tuple of
Python ints, one per batch axis.
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


def per_example_grads(params, x, y, *, loss=None, batch_ndim=None, **loss_kwargs):
    """The gradient of ``loss`` on each example alone, stacked on the batch axes.

    ``x`` has ``batch_ndim`` leading batch axes (default ``y.ndim``, i.e. one
    for the lesson's int labels); the result has those axes in front of every
    leaf of ``params``. Extra keyword arguments go to ``loss``.
    """
    loss = loss_fn if loss is None else loss
    x = jnp.asarray(x, dtype=jnp.result_type(x, _param_dtype(params)))
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
    """The index of the example with the largest gradient norm.

    Returned as a tuple of Python ints, one per batch axis, so it can index the
    norms (or ``x``) directly for any batch layout: ``x[idx]``.
    """
    y = jnp.asarray(y)
    grads = per_example_grads(params, x, y, **kwargs)
    norms = per_example_grad_norms(grads, batch_ndim=y.ndim)
    return tuple(int(i) for i in jnp.unravel_index(jnp.argmax(norms), norms.shape))
