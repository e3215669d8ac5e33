# BLIND-SET: 15
# EXERCISE: ex2
# WHAT: largest_gradient_example "compiles the pipeline once" by storing a jax.jit of a lambda in a module global on the first call; the lambda closes over that first call's params, so every later call ranks the examples with the first params.
# SHOULD-SAY: per_example_grads and per_example_grad_norms are right, and the first call of largest_gradient_example is right, but later calls ignore the params they are given: the cached jitted lambda captured `params` from the first call as a constant, so with new params (e.g. after training) it returns the index of the largest gradient under the OLD params. Pass params as an argument of the jitted function (jax.jit(lambda p, x, y: ...)) or don't cache a closure in a global at all.
"""Exercise 2: per-example gradients with jax.vmap over jax.grad."""

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
    return jax.vmap(_tree_norm)(grads)


_norms_fn = None  # the jitted norms pipeline, built on the first call


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    global _norms_fn
    if _norms_fn is None:
        # compile grads + norms once instead of re-tracing on every call
        _norms_fn = jax.jit(lambda xb, yb: per_example_grad_norms(per_example_grads(params, xb, yb)))
    return int(jnp.argmax(_norms_fn(x, y)))
