"""A correct solution that prints 40 MB while it works: output is capped, grading is unaffected."""
import sys

import jax
import jax.numpy as jnp
import optax

EXPECT = {"status": "pass"}

_LINE = "x" * 1023 + "\n"
for _ in range(40 * 1024):
    sys.stdout.write(_LINE)


def forward(params, x):
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def per_example_grads(params, x, y):
    return jax.vmap(jax.grad(lambda p, xi, yi: loss_fn(p, xi[None], yi[None])), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    return jax.vmap(optax.tree.norm)(grads) if hasattr(optax, "tree") else jax.vmap(optax.global_norm)(grads)


def largest_gradient_example(params, x, y):
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
