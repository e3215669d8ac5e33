# BLIND-SET: 45
# EXERCISE: ex2
# WHAT: the single-example loss builds its one-hot target as (y == 1:10), i.e. y compared with jnp.arange(1, 11) as R's class levels, so label k is scored as class k-1 and label 0 gets an all-zero target (loss 0, gradient 0); every per-example gradient, norm and the largest index differ from the reference.
# SHOULD-SAY: Your per-example gradients are taken for the wrong targets: the one-hot compares the labels with arange(1, 11), R's 1:10, but the labels are 0..9, so every label is shifted down one class and label 0 matches no class at all. Compare with jnp.arange(10) (or use jax.nn.one_hot(y, 10), as loss_fn does).
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

CLASSES = jnp.arange(1, 11)  # levels 1:10, as in model.matrix(~ factor(y) - 1)


def example_loss(params, xi, yi):
    """Cross-entropy of one example (xi is one row, yi one label)."""
    z = forward(params, xi[None, :])[0]            # logits of this example
    Y = (yi == CLASSES).astype(z.dtype)            # indicator row Y(k) = (y == k)
    return -jnp.sum(Y * jax.nn.log_softmax(z))


def per_example_grads(params, x, y):
    """sapply over examples, vectorised: vmap(grad) over rows of x and y."""
    g = jax.grad(example_loss)
    return jax.vmap(g, in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """sqrt(sum of squares over every leaf) for each example."""
    leaves = jax.tree.leaves(grads)
    B = leaves[0].shape[0]
    total = jnp.zeros(B)
    for g in leaves:
        total = total + jnp.sum(g.reshape(B, -1) ** 2, axis=1)  # rowSums
    return jnp.sqrt(total)


def largest_gradient_example(params, x, y):
    """Index (0-based, Python int) of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.argmax(norms))
