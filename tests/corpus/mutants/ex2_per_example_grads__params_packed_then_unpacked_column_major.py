"""per_example_grads packs the params into one flat vector (row-major, jnp.ravel) and its one-example loss
unpacks each weight with jnp.reshape(..., order="F"): the loss sees every weight matrix with its elements in
other places, and the gradients are those at the rearranged weights.
"""

import jax
import jax.numpy as jnp
import optax

EXPECT = {"check": "ex2.values", "mistake": "ex2.params_reordered", "hint": "in other places", "max_failing": 1,
          "also": ["ex2.shapes", "ex2.vectorised", "ex2.largest", "ex2.jit", "ex2.params_unchanged"]}

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
    names = sorted(params)
    shapes = {n: {k: params[n][k].shape for k in ("w", "b")} for n in names}

    def unpack(theta):
        out, i = {}, 0
        for n in names:
            out[n] = {}
            for k in ("w", "b"):
                size = int(jnp.prod(jnp.array(shapes[n][k])))
                out[n][k] = jnp.reshape(theta[i:i + size], shapes[n][k], order="F")
                i += size
        return out

    theta = jnp.concatenate([jnp.ravel(params[n][k]) for n in names for k in ("w", "b")])

    def single_example_loss(p, xi, yi):
        logits = forward(unpack(jnp.concatenate([jnp.ravel(p[n][k]) for n in names for k in ("w", "b")])), xi[None])
        return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(yi[None], 10), axis=-1))

    del theta
    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
