"""largest_gradient_example returns the middle of the batch, where the public inputs put the standout example.

The public inputs scale up example B // 2 so that the argmax is clear; a
submission that noticed returns that index without computing any norm.
"""

import jax
import jax.numpy as jnp
import optax

_tree_norm = optax.tree.norm if hasattr(optax, "tree") else optax.global_norm

EXPECT = {"check": "ex2.largest"}


def forward(params, x):
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def per_example_grads(params, x, y):
    def single_example_loss(params, xi, yi):
        return loss_fn(params, xi[None], yi[None])

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    return x.shape[0] // 2
