# BLIND-SET: correct
# EXERCISE: ex2
# WHAT: vmap maps only over (x, y), with params captured by closure inside the per-example grad function; each example's squared norm is a sum of jnp.vdot(leaf, leaf) (vdot flattens), and the index comes from Array.argmax().item().
# SHOULD-SAY: full marks
"""Exercise 2: per-example gradients with jax.vmap over jax.grad (closure and vdot style)."""

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


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""

    def grad_of_one(xi, yi):
        return jax.grad(loss_fn)(params, xi[None], yi[None])

    return jax.vmap(grad_of_one)(x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""

    def norm_of_one(g):
        return jnp.sqrt(sum(jnp.vdot(leaf, leaf) for leaf in jax.tree.leaves(g)))

    return jax.vmap(norm_of_one)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return norms.argmax().item()
