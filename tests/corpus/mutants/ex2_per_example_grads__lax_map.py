"""jax.lax.map over the examples: correct values, but a sequential loop, not vmap."""

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

EXPECT = {"check": "ex2.vectorised", "mistake": "ex2.sequential_loop", "max_failing": 1, "hint": "sequential"}


def per_example_grads(params, x, y):
    def one(example):
        xi, yi = example
        return jax.grad(loss_fn)(params, xi[None], yi[None])

    return jax.lax.map(one, (x, y))


def per_example_grad_norms(grads):
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
