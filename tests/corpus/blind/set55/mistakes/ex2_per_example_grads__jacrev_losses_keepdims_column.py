# BLIND-SET: 55
# EXERCISE: ex2
# WHAT: per_example_grads takes jax.jacrev of a per-example loss vector built with NumPy's keepdims=True habit, so the losses have shape (B, 1) and every gradient leaf gets an extra axis: layer1.w is (B, 1, 784, 256) instead of (B, 784, 256), slice i is (1, ...) not shaped like the params leaf. Norms and the index are unchanged in value.
# SHOULD-SAY: Your per-example gradient leaves have shape (B, 1, ...) because the loss vector you differentiate is (B, 1) (keepdims=True); make it shape (B,) (drop keepdims) or use jax.vmap(jax.grad(...)) so each leaf is (B, *param.shape).
"""Exercise 2: per-example gradients (Jacobian-of-losses recipe from a forum answer)."""

import jax
import jax.numpy as jnp


def forward(params, x):
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def _example_losses(params, x, y):
    logp = jax.nn.log_softmax(forward(params, x), axis=-1)
    onehot = jax.nn.one_hot(y, 10)
    # numpy habit: keep the reduced axis so shapes "line up"
    return -jnp.sum(logp * onehot, axis=-1, keepdims=True)


def per_example_grads(params, x, y):
    # d loss_i / d params for every i at once; vectorised via jax.vmap inside jacrev
    return jax.jacrev(_example_losses)(params, x, y)


def per_example_grad_norms(grads):
    leaves = jax.tree_util.tree_leaves(grads)
    n = leaves[0].shape[0]
    sq = sum(jnp.sum(jnp.reshape(g, (n, -1)) ** 2, axis=1) for g in leaves)
    return jnp.sqrt(sq)


def largest_gradient_example(params, x, y):
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))).item())
