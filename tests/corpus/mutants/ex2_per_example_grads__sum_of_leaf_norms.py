"""Adds up the L2 norm of each leaf instead of taking one norm over all leaves."""

import jax
import jax.numpy as jnp
import optax

_tree_norm = optax.tree.norm if hasattr(optax, "tree") else optax.global_norm


def forward(params, x):
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))

EXPECT = {"check": "ex2.norms", "mistake": "ex2.sum_of_leaf_norms", "max_failing": 1, "hint": "adds up the norms of the leaves",
          "also": ["ex2.largest"]}


def per_example_grads(params, x, y):
    def single_example_loss(params, xi, yi):
        return loss_fn(params, xi[None], yi[None])

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    leaves = jax.tree.leaves(grads)
    return sum(jnp.linalg.norm(leaf.reshape(leaf.shape[0], -1), axis=1) for leaf in leaves)


def largest_gradient_example(params, x, y):
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
