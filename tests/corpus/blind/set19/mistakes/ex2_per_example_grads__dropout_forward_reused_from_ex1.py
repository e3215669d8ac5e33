# BLIND-SET: 19
# EXERCISE: ex2
# WHAT: the per-example loss runs the model through a copy of the ex1 dropout forward (rate 0.5, fixed key, train=True) instead of the plain lesson forward
# SHOULD-SAY: The vmap(grad) structure, leading axis B, the norms and the int index are right, but the gradients are of a dropout-perturbed network, not of loss_fn: reuse the given loss_fn/forward (no dropout) for the single-example loss.
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

# copied from my exercise 1, since training uses dropout
_DROP_KEY = jax.random.PRNGKey(0)


def _dropout(key, h, rate):
    keep = 1.0 - rate
    return jnp.where(jax.random.bernoulli(key, keep, h.shape), h / keep, 0.0)


def _train_forward(params, x, key, rate=0.5):
    k1, k2 = jax.random.split(key)
    h = _dropout(k1, jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"]), rate)
    h = _dropout(k2, jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"]), rate)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def _example_loss(params, xi, yi):
    logits = _train_forward(params, xi[None, :], _DROP_KEY)
    return -jnp.sum(jax.nn.log_softmax(logits)[0] * jax.nn.one_hot(yi, 10))


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone."""
    return jax.vmap(jax.grad(_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""
    total = 0.0
    for leaf in jax.tree.leaves(grads):
        total = total + jnp.sum(leaf.reshape(leaf.shape[0], -1) ** 2, axis=-1)
    return jnp.sqrt(total)


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
