# BLIND-SET: 20
# EXERCISE: ex2
# WHAT: per_example_grads differentiates Flax-style with respect to variables = {'params': params} and returns that gradient, so the result is wrapped in an extra {'params': ...} level instead of having params' structure
# SHOULD-SAY: the per-example maths is right (vmap over grad, one example at a time, norms over every leaf, largest index correct), but per_example_grads returns {'params': {...}}, the structure of a Flax variables dict, not a pytree shaped like params; differentiate with respect to params itself (or return grads['params'])

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

    # Flax-style: differentiate with respect to the whole variables collection.
    variables = {"params": params}

    def single_example_loss(variables, xi, yi):
        return loss_fn(variables["params"], xi[None], yi[None])

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(variables, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
