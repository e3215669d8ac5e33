# BLIND-SET: 23
# EXERCISE: ex2
# WHAT: correct rewrite: the per-example loss is written for one unbatched example as logsumexp(logits) - logits[y]; vmap(grad) over it; norms from per-leaf row sums of squares; index via .item()
# SHOULD-SAY: full marks
"""Exercise 2: per-example gradients, written on an unbatched example loss."""

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


def _one_example_loss(params, xi, yi):
    """Cross-entropy of a single example: xi is (784,), yi a scalar label."""
    logits = forward(params, xi)
    return jax.nn.logsumexp(logits) - logits[yi]


_batched_grad = jax.vmap(jax.grad(_one_example_loss), in_axes=(None, 0, 0))


def per_example_grads(params, x, y):
    return _batched_grad(params, x, y)


def per_example_grad_norms(grads):
    squares = [
        jnp.sum(jnp.square(leaf).reshape(leaf.shape[0], -1), axis=1)
        for leaf in jax.tree.leaves(grads)
    ]
    return jnp.sqrt(sum(squares))


def largest_gradient_example(params, x, y):
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return jnp.argmax(norms).item()
