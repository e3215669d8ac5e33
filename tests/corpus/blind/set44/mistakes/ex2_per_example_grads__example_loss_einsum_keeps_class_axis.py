# BLIND-SET: 44
# EXERCISE: ex2
# WHAT: The per-example loss is written with jnp.einsum("bc,bc->c", logp, onehot) followed by a mean, so it keeps the class axis instead of the batch axis and averages the one nonzero entry over 10 classes. Each example's loss, and so every per-example gradient leaf and every norm, is exactly 1/10 of the true value; the argmax index is unchanged.
# SHOULD-SAY: The per-example gradients (and norms) are 10 times too small: the example's cross-entropy sums over classes with the output index "c" kept, so the mean then divides by the 10 classes. Contract over the class index ("bc,bc->b"), then average over the batch axis (size 1 here), or just call loss_fn(params, xi[None], yi[None]).
"""Exercise 2: per-example gradients with jax.vmap over jax.grad (einsum edition)."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def example_loss(params, xi, yi):
    """Loss of one example: xi (784,), yi () -> scalar."""
    logits = forward(params, xi[jnp.newaxis])                        # (1, 10)
    logp = jax.nn.log_softmax(logits, axis=-1)                       # (1, 10)
    onehot = jax.nn.one_hot(yi[jnp.newaxis], logits.shape[-1])       # (1, 10)
    nll = -jnp.einsum("bc,bc->c", logp, onehot)                      # pick the label's log-prob
    return jnp.mean(nll)


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    # params unbatched, x (B, 784) over axis 0, y (B,) over axis 0 -> every leaf (B, *leaf.shape)
    return jax.vmap(jax.grad(example_loss), in_axes=(None, 0, 0), out_axes=0)(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    sq = jax.tree.map(lambda g: jnp.einsum("b...,b...->b", g, g), grads)   # each leaf -> (B,)
    return jnp.sqrt(jnp.sum(jnp.stack(jax.tree.leaves(sq), axis=-1), axis=-1))  # (B, L) -> (B,)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y)), axis=0))
