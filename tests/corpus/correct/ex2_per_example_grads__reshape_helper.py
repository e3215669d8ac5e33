"""vmap of grad over a helper that reshapes one example into a batch of one; norms from tree leaves."""

import jax
import jax.numpy as jnp
import optax


def _forward(params, x):
    n = len(params)
    for i in range(1, n + 1):
        x = x @ params[f"layer{i}"]["w"] + params[f"layer{i}"]["b"]
        if i < n:
            x = jax.nn.relu(x)
    return x


def _loss(params, x, y):
    return optax.softmax_cross_entropy_with_integer_labels(_forward(params, x), y).mean()


def _one_example_loss(params, xi, yi):
    return _loss(params, xi.reshape(1, -1), yi.reshape(1))


def per_example_grads(params, x, y):
    return jax.vmap(jax.grad(_one_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    leaves = jax.tree.leaves(grads)
    squares = [jnp.sum(leaf.reshape(leaf.shape[0], -1) ** 2, axis=1) for leaf in leaves]
    return jnp.sqrt(sum(squares))


def largest_gradient_example(params, x, y):
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return norms.argmax().item()
