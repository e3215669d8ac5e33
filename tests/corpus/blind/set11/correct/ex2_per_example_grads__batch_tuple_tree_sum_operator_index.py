# BLIND-SET: correct
# EXERCISE: ex2
# WHAT: vmaps jax.grad over an (x, y) batch tuple with a nested in_axes spec, using optax's integer-label cross-entropy; norms via optax.tree_utils.tree_sum of squares; index via operator.index.
# SHOULD-SAY: full marks
"""Exercise 2 (reference): per-example gradients with jax.vmap over jax.grad."""

import operator

import jax
import jax.numpy as jnp
import optax

# optax.tree.norm is the current name; optax.global_norm is the older one.
_tree_norm = optax.tree.norm if hasattr(optax, "tree") else optax.global_norm


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""

    def example_loss(params, example):
        xi, yi = example
        logits = forward(params, xi[None])
        return optax.softmax_cross_entropy_with_integer_labels(logits, yi[None]).mean()

    return jax.vmap(jax.grad(example_loss), in_axes=(None, (0, 0)))(params, (x, y))


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    def one(g):
        squares = jax.tree.map(lambda a: jnp.sum(jnp.square(a)), g)
        return jnp.sqrt(optax.tree_utils.tree_sum(squares))

    return jax.vmap(one)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return operator.index(jnp.argmax(norms))
