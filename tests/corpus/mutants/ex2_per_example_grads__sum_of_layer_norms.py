"""Takes each layer's norm (its weights and biases together, one optax norm per layer subtree) and adds the
layers' norms up, instead of one norm over all leaves."""

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

EXPECT = {"check": "ex2.norms", "mistake": "ex2.sum_of_layer_norms", "max_failing": 1, "hint": "adds up each layer's norm",
          "also": ["ex2.largest"]}


def per_example_grads(params, x, y):
    def single_example_loss(params, xi, yi):
        return loss_fn(params, xi[None], yi[None])

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    def one(example):
        return sum(_tree_norm(layer) for layer in example.values())

    return jax.vmap(one)(grads)


def largest_gradient_example(params, x, y):
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
