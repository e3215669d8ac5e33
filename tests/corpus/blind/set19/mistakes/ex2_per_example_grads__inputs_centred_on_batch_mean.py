# BLIND-SET: 19
# EXERCISE: ex2
# WHAT: per_example_grads first subtracts the batch mean from x ("preprocessing"), so example i's gradient depends on the rest of the batch
# SHOULD-SAY: The vmap over jax.grad with in_axes=(None, 0, 0), the shapes, the norms and the int index are right, but the gradients are taken on x - x.mean(0), not on the example itself, so they do not equal jax.grad(loss_fn)(params, x[i:i+1], y[i:i+1]); drop the batch centring and differentiate on the raw inputs.
"""Exercise 2: per-example gradients with jax.vmap."""

import jax
import jax.numpy as jnp

# --- Given: the lesson's model and loss ----------------------------------------


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


# --- Your code ----------------------------------------------------------------


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone."""
    # centre the inputs so that the gradients are not dominated by the pixel offset
    x = x - jnp.mean(x, axis=0, keepdims=True)

    def one(p, xi, yi):
        return loss_fn(p, xi[jnp.newaxis, :], yi[jnp.newaxis])

    return jax.vmap(jax.grad(one), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""
    squares = [jnp.sum(g.reshape(g.shape[0], -1) ** 2, axis=1) for g in jax.tree.leaves(grads)]
    return jnp.sqrt(sum(squares))


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.argmax(norms))
