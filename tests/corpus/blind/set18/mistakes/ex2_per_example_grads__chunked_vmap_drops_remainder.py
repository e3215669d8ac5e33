# BLIND-SET: 18
# EXERCISE: ex2
# WHAT: copying a DP-SGD microbatching snippet, per_example_grads vmaps over chunks of 8 examples (a vmap of a vmap) by reshaping x to (B // 8, 8, 784), so the last B % 8 examples are silently dropped when B is not a multiple of 8.
# SHOULD-SAY: each per-example gradient that is returned is correct, and the norms and argmax are right, but when the batch size is not a multiple of 8 (e.g. B=10, 12, 20; batches up to 8 and multiples of 8 are fine) the leaves have a leading axis shorter than B and the trailing examples are lost; vmap over the whole batch, or pad the last chunk and cut the padding off afterwards.
"""Exercise 2: per-example gradients with jax.vmap."""

import jax
import jax.numpy as jnp

# --- Given: the lesson's model and loss ----------------------------------------


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


# --- Your code ----------------------------------------------------------------

CHUNK = 8


def _single(params, xi, yi):
    return loss_fn(params, xi[None], yi[None])


_grad_chunk = jax.vmap(jax.grad(_single), in_axes=(None, 0, 0))


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone, in microbatches of 8."""
    B = x.shape[0]
    chunk = min(CHUNK, B)
    n_chunks = B // chunk
    xs = x[: n_chunks * chunk].reshape(n_chunks, chunk, *x.shape[1:])
    ys = y[: n_chunks * chunk].reshape(n_chunks, chunk)
    grads = jax.vmap(_grad_chunk, in_axes=(None, 0, 0))(params, xs, ys)
    return jax.tree.map(lambda g: g.reshape(n_chunks * chunk, *g.shape[2:]), grads)


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""
    sq = jax.tree.map(lambda g: jnp.sum(g**2, axis=tuple(range(1, g.ndim))), grads)
    return jnp.sqrt(sum(jax.tree.leaves(sq)))


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
