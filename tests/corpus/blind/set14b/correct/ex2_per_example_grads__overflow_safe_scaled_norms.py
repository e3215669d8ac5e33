# BLIND-SET: 14
# EXERCISE: ex2
# WHAT: per_example_grad_norms computes each norm the LAPACK-nrm2 way (divide by the example's largest absolute entry, sum squares, take the root, multiply back) so huge gradients cannot overflow; the example loss picks the label's log-probability with take_along_axis; largest_gradient_example takes the first index of a stable descending argsort.
# SHOULD-SAY: Full marks: per-example gradients match the per-example computation on every leaf with a leading batch axis, vectorised with vmap over grad; the norms are the global L2 norms over all weights and biases (scaled computation is numerically the same); the index is a Python int at the largest norm; everything agrees under jax.jit and leaves inputs unmodified.
"""Exercise 2: per-example gradients with jax.vmap."""

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


def _one_example_loss(params, xi, yi):
    """Cross-entropy of one unbatched example: xi (784,), yi a scalar label."""
    log_probs = jax.nn.log_softmax(forward(params, xi))
    return -jnp.take_along_axis(log_probs, jnp.reshape(yi, (1,)), axis=-1)[0]


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone."""
    return jax.vmap(jax.grad(_one_example_loss), in_axes=(None, 0, 0), out_axes=0)(params, x, y)


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""
    rows = [g.reshape(g.shape[0], -1) for g in jax.tree.leaves(grads)]
    biggest = jnp.max(jnp.stack([jnp.max(jnp.abs(r), axis=1) for r in rows]), axis=0)
    scale = jnp.where(biggest > 0, biggest, 1.0)
    sum_sq = sum(jnp.sum(jnp.square(r / scale[:, None]), axis=1) for r in rows)
    return scale * jnp.sqrt(sum_sq)


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.argsort(-norms, stable=True)[0])
