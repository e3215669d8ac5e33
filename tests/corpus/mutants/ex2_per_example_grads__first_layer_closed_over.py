"""The first layer is closed over as a fixed feature extractor: only layer2 and layer3 are differentiated, and
layer1's per-example gradients are filled with zeros."""

import jax
import jax.numpy as jnp
import optax

EXPECT = {"check": "ex2.values", "mistake": "ex2.params_frozen", "hint": "with respect to every leaf", "max_failing": 1,
          "also": ["ex2.shapes", "ex2.vectorised", "ex2.jit", "ex2.params_unchanged", "ex2.largest"]}

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
    first = params["layer1"]  # the first layer is treated as a fixed feature extractor
    trainable = {name: layer for name, layer in params.items() if name != "layer1"}

    def single_example_loss(trainable, xi, yi):
        return loss_fn({"layer1": first, **trainable}, xi[None], yi[None])

    grads = jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(trainable, x, y)
    zeros = jax.tree.map(lambda a: jnp.zeros((x.shape[0], *a.shape), a.dtype), first)
    return {"layer1": zeros, **grads}


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
