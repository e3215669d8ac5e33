# BLIND-SET: mistake
# EXERCISE: ex2
# WHAT: per_example_grads stores its result in a module-level cache and largest_gradient_example reuses the cached gradients 'to avoid recomputing', whatever params/x/y it is given. After any earlier call on other inputs it answers for the stale batch (possibly an out-of-range index); after a jitted call the cache holds tracers and later calls fail with a leaked-tracer error.
# SHOULD-SAY: largest_gradient_example disagrees with the reference on a second batch / after per_example_grads was called on other inputs, and purity under jit fails (hidden global state, leaked tracer). Fix: compute from the arguments, no global cache.
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


_CACHE = {}


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""

    def single_example_loss(params, xi, yi):
        return loss_fn(params, xi[None], yi[None])

    grads = jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)
    _CACHE["grads"] = grads
    return grads


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    grads = _CACHE.get("grads")
    if grads is None:
        grads = per_example_grads(params, x, y)
    return int(jnp.argmax(per_example_grad_norms(grads)))
