# BLIND-SET: 52
# EXERCISE: ex2
# WHAT: per_example_grad_norms folds the per-leaf sums of squares with functools.reduce seeded with the first leaf's sum of squares but still iterates over all leaves, so the first leaf in tree order (layer1's bias gradient) is counted twice: norm_i = sqrt(sum_all_i + sum_layer1.b_i), too large on every example with a nonzero layer-1 bias gradient (relative error about 5e-4 on N(0,1) inputs, 1e-3 on U[0,1) inputs, 9% on 0.05*N(0,1) inputs).
# SHOULD-SAY: The norms count layer1's bias gradient twice: reduce(f, leaves, sq(leaves[0])) starts from the first leaf and then adds it again. Seed the reduce with 0.0 (or iterate over leaves[1:] when seeding with the first one).
"""Exercise 2: per-example gradients with jax.vmap (reduce over leaves)."""

from functools import reduce

import jax
import jax.numpy as jnp


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
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    return jax.vmap(lambda xi, yi: jax.grad(loss_fn)(params, xi[None], yi[None]))(x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    sq = lambda g: jnp.sum(g.reshape(g.shape[0], -1) ** 2, axis=1)
    leaves = jax.tree.leaves(grads)
    return jnp.sqrt(reduce(lambda acc, g: acc + sq(g), leaves, sq(leaves[0])))


def largest_gradient_example(params, x, y):
    """Index (Python int) of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y)).tolist()
    return max(range(len(norms)), key=norms.__getitem__)

