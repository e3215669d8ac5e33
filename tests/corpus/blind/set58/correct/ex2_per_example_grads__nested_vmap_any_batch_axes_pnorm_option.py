# BLIND-SET: 58
# EXERCISE: ex2
# WHAT: correct: per_example_grads takes an optional loss (default loss_fn) and **loss_kwargs, casts x to the params' result dtype (float32 here), and wraps jax.grad of the single-example loss loss(p, xi[None], yi[None]) in one jax.vmap(in_axes=(None, 0, 0)) per batch axis (y.ndim, one for the contract). per_example_grad_norms sums |leaf|**ord over all leaves per example, reshaped to (B, -1), then takes sqrt for ord=2. largest_gradient_example unravels argmax(norms) to ints and unwraps the single-axis case to a plain int. Grads and norms are bit-identical to the reference's at B = 1/3/32/100/128 on N(0,1), U[0,1) and 0.1*N(0,1) inputs with zero and non-zero biases (jit norms within 2.4e-7). The index is the reference's int on every batch, and slice i matches the grad of example i alone within 2.3e-6.
# SHOULD-SAY: full marks
"""Exercise 2: per-example gradients with jax.vmap, for any loss, pytree and batch layout.

``per_example_grads`` takes an optional ``loss`` (default: the lesson's
``loss_fn``) and works for any number of leading batch axes on ``x``/``y``;
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
    """The index of the example with the largest gradient norm, as Python int(s)."""
    y = jnp.asarray(y)
    grads = per_example_grads(params, x, y, **kwargs)
    norms = per_example_grad_norms(grads, batch_ndim=y.ndim)
    index = tuple(int(i) for i in jnp.unravel_index(jnp.argmax(norms), norms.shape))
    return index[0] if len(index) == 1 else index
