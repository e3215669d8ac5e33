# BLIND-SET: 21
# EXERCISE: ex2
# WHAT: per_example_grads, Opacus-style, stores the per-example gradients inside the caller's params dict (params[layer]["grad_sample"] = ...) before returning them; values, shapes, norms and index are right, but the input params is mutated (it gains "grad_sample" entries).
# SHOULD-SAY: the per-example gradients, their norms and the largest index are all correct, but per_example_grads modifies its `params` argument by attaching a "grad_sample" entry to every layer (PyTorch/Opacus keep p.grad_sample on the model; JAX params are plain values). Return the gradients without writing anything into params.
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

    # Only the trainable tensors (not any grad_sample kept from an earlier call).
    trainable = {name: {"w": layer["w"], "b": layer["b"]} for name, layer in params.items()}
    grads = jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(trainable, x, y)
    # Keep them on the model, like Opacus's p.grad_sample, for later use.
    for name, layer_grads in grads.items():
        params[name]["grad_sample"] = layer_grads
    return grads


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))

