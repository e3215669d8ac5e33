# BLIND-SET: 28
# EXERCISE: ex2
# WHAT: Correct rewrite: vmap of a closure over params that grads loss_fn on a one-row batch; norms as the square root of per-leaf sums of squares over all but the leading axis; index by norms.argmax().
# SHOULD-SAY: Nothing to fix: per-example gradients, norms over every leaf and a Python int index are all right.
"""Exercise 2: per-example gradients (rewritten)."""

import jax
import jax.numpy as jnp


def forward(params, x):
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def per_example_grads(params, x, y):
    grad_fn = jax.grad(loss_fn)

    def one(xi, yi):
        return grad_fn(params, jnp.expand_dims(xi, 0), jnp.expand_dims(yi, 0))

    return jax.vmap(one)(x, y)


def per_example_grad_norms(grads):
    sq = [jnp.sum(jnp.square(g), axis=tuple(range(1, g.ndim))) for g in jax.tree.leaves(grads)]
    return jnp.sqrt(sum(sq[1:], sq[0]))


def largest_gradient_example(params, x, y):
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(norms.argmax())
