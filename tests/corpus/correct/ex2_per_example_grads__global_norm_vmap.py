"""Per-example loss written with the label as a scalar; optax.global_norm mapped over the batch."""

import jax
import jax.numpy as jnp
import optax


def mlp(params, x):
    names = sorted(params, key=lambda k: int(k[5:]))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    return x @ params[names[-1]]["w"] + params[names[-1]]["b"]


def example_loss(params, xi, yi):
    """Cross-entropy of one example (xi of shape (784,), yi a scalar label)."""
    logits = mlp(params, xi)
    return -(jax.nn.log_softmax(logits) * jax.nn.one_hot(yi, 10)).sum()


def per_example_grads(params, x, y):
    grad_one = jax.grad(example_loss)
    return jax.vmap(grad_one, in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    return jax.vmap(optax.global_norm)(grads)


def largest_gradient_example(params, x, y):
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
