# BLIND-SET: 36
# EXERCISE: ex2
# WHAT: Correct rewrite in Keras terms: each example's loss is optax's integer-label softmax cross-entropy on the logits (Keras SparseCategoricalCrossentropy(from_logits=True)), vmapped jax.grad over the batch; norms from flattened per-example rows of every leaf; the index via numpy argmax turned into a Python int.
# SHOULD-SAY: Nothing to fix: per-example gradients of the lesson's loss with a leading B axis, global L2 norms over weights and biases, and a Python int index.
"""Exercise 2 (Keras-flavoured rewrite): per-example gradients with jax.vmap over jax.grad."""

import jax
import jax.numpy as jnp
import numpy as np
import optax


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def _sparse_ce_from_logits(y_true, logits):
    """Keras SparseCategoricalCrossentropy(from_logits=True), mean over the batch."""
    return jnp.mean(optax.softmax_cross_entropy_with_integer_labels(logits, y_true))


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""

    def example_loss(params, x_i, y_i):
        logits = forward(params, x_i[jnp.newaxis, :])
        return _sparse_ce_from_logits(y_i[jnp.newaxis], logits)

    grad_fn = jax.grad(example_loss)
    return jax.vmap(grad_fn, in_axes=(None, 0, 0), out_axes=0)(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    leaves = jax.tree.leaves(grads)
    batch = leaves[0].shape[0]
    flat = jnp.concatenate([leaf.reshape(batch, -1) for leaf in leaves], axis=1)
    return jnp.sqrt(jnp.sum(jnp.square(flat), axis=1))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(np.argmax(np.asarray(norms)))
