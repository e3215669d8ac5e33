# BLIND-SET: correct
# EXERCISE: ex2
# WHAT: Each example's gradient is the VJP of its loss with cotangent 1.0 (jax.vjp), vmapped over the batch; norms are jnp.linalg.vector_norm per leaf, stacked and combined with jnp.linalg.norm over the leaf axis; index via .argmax().
# SHOULD-SAY: full marks (a grader that insists on the literal name jax.grad might object; the numbers are identical)
"""Exercise 2: per-example gradients as vmapped VJPs."""

import jax
import jax.numpy as jnp
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


def per_example_grads(params, x, y):
    def one(xi, yi):
        _, pullback = jax.vjp(lambda p: loss_fn(p, xi[None], yi[None]), params)
        (grad,) = pullback(jnp.ones((), dtype=jnp.float32))
        return grad

    return jax.vmap(one)(x, y)


def per_example_grad_norms(grads):
    leaf_norms = [
        jnp.linalg.vector_norm(g, axis=tuple(range(1, g.ndim))) for g in jax.tree.leaves(grads)
    ]
    return jnp.linalg.norm(jnp.stack(leaf_norms), axis=0)


def largest_gradient_example(params, x, y):
    return int(per_example_grad_norms(per_example_grads(params, x, y)).argmax())
