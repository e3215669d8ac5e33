# BLIND-SET: 55
# EXERCISE: ex2
# WHAT: per_example_grad_norms calls optax.safe_norm(flat, 2, axis=1) as if it were np.linalg.norm(x, ord, axis), but safe_norm's second positional argument is min_norm, so every norm below 2.0 is replaced by 2.0; examples with small gradients all report 2.0 (and ties at 2.0 can change the largest index when all norms are below 2).
# SHOULD-SAY: optax.safe_norm(x, min_norm, ord=None, axis=None) takes min_norm second: your "2" floors every norm at 2.0. Use jnp.linalg.norm(flat, axis=1) (or optax.safe_norm(flat, 0.0, axis=1)) for the true L2 norm.
"""Exercise 2: per-example gradients with jax.vmap; norms with optax helpers."""

import jax
import jax.numpy as jnp
import optax


def forward(params, x):
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def per_example_grads(params, x, y):
    def one(p, xi, yi):
        return loss_fn(p, jnp.expand_dims(xi, 0), jnp.expand_dims(yi, 0))

    return jax.vmap(jax.grad(one), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    leaves = jax.tree_util.tree_leaves(grads)
    b = leaves[0].shape[0]
    flat = jnp.concatenate([leaf.reshape(b, -1) for leaf in leaves], axis=1)
    # like np.linalg.norm(flat, 2, axis=1), with a safe gradient at 0
    return optax.safe_norm(flat, 2, axis=1)


def largest_gradient_example(params, x, y):
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(norms.argmax().item())
