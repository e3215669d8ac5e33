# BLIND-SET: 50
# EXERCISE: ex2
# WHAT: Correct. per_example_grads reshapes the batch into B batches of one, (B, 1, 784) and (B, 1), and vmaps jax.grad(loss_fn) itself over them with in_axes=(None, 0, 0). per_example_grad_norms flattens every leaf to (B, -1), concatenates them into one (B, P) matrix and takes jnp.linalg.norm along axis 1. largest_gradient_example checks the shapes, handles B == 1 explicitly and takes numpy's first-occurrence argmax. It matches the reference for B = 1, odd B, zero and tiny gradients.
# SHOULD-SAY: Nothing to fix: full marks for ex2.
"""Exercise 2: per-example gradients with jax.vmap."""

import jax
import jax.numpy as jnp
import numpy as np


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone, as B batches of one."""
    x = jnp.asarray(x)
    y = jnp.asarray(y)
    assert x.ndim == 2 and y.shape == (x.shape[0],), (x.shape, y.shape)
    batches_of_one_x = x.reshape(x.shape[0], 1, x.shape[1])
    batches_of_one_y = y.reshape(y.shape[0], 1)
    grad_of_batch = jax.grad(loss_fn)  # loss_fn already averages over a batch (of one here)
    return jax.vmap(grad_of_batch, in_axes=(None, 0, 0))(params, batches_of_one_x, batches_of_one_y)


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient, as one (B, P) matrix."""
    leaves = jax.tree_util.tree_leaves(grads)
    n_examples = leaves[0].shape[0]
    flat = jnp.concatenate([leaf.reshape(n_examples, -1) for leaf in leaves], axis=1)
    return jnp.linalg.norm(flat, axis=1)


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm, as a Python int."""
    norms = np.asarray(per_example_grad_norms(per_example_grads(params, x, y)))
    assert norms.shape == (np.shape(x)[0],), norms.shape
    if norms.shape[0] == 1:
        return 0
    return int(np.argmax(norms))
