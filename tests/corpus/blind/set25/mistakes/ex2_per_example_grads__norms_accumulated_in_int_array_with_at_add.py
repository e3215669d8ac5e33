# BLIND-SET: 25
# EXERCISE: ex2
# WHAT: per_example_grad_norms accumulates each leaf's per-example sum of squares into jnp.zeros(B, dtype=int) with the jax.ops-style `.at[:].add(...)`; the scatter casts the float sums to int32, truncating every leaf's contribution to a whole number, so the squared norms are too small by up to 1 per leaf (leaves with a sum of squares below 1 vanish entirely). The norms differ from the reference, badly for small gradients, and largest_gradient_example can point at the wrong example.
# SHOULD-SAY: The accumulator is an integer array, and .at[].add casts the added float values to its dtype (JAX only warns). Start from a float32 accumulator (jnp.zeros(B, dtype=jnp.float32)) or just add the (B,) sums with +, or vmap optax.global_norm.
"""Exercise 2 (reference): per-example gradients with jax.vmap over jax.grad."""

import jax
import jax.numpy as jnp
import optax

# optax.tree.norm is the current name; optax.global_norm is the older one.
_tree_norm = optax.tree.norm if hasattr(optax, "tree") else optax.global_norm


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""

    def single_example_loss(params, xi, yi):
        return loss_fn(params, xi[None], yi[None])

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    leaves = jax.tree_util.tree_leaves(grads)
    batch = leaves[0].shape[0]
    sq = jnp.zeros(batch, dtype=int)
    for g in leaves:
        sq = sq.at[:].add(jnp.sum(g.reshape(batch, -1) ** 2, axis=1))
    return jnp.sqrt(sq)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
