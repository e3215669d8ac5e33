# BLIND-SET: 17
# EXERCISE: ex2
# WHAT: largest_gradient_example returns the example whose gradient norm is furthest from the batch mean (largest |z-score|), treating it as an outlier search, so an unusually small norm can be picked instead of the largest one
# SHOULD-SAY: per-example gradients and their norms are right, but the index is not the argmax of the norms: |norm - mean| / std also flags examples with unusually small gradients; return int(jnp.argmax(norms)) instead
"""Exercise 2: per-example gradients with jax.vmap."""

import jax
import jax.numpy as jnp
import optax

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
    batched = jax.vmap(
        lambda p, xi, yi: jax.grad(loss_fn)(p, xi[jnp.newaxis], yi[jnp.newaxis]),
        in_axes=(None, 0, 0),
    )
    return batched(params, x, y)


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""
    return jax.vmap(optax.tree.norm)(grads)


def largest_gradient_example(params, x, y):
    """The index of the example that stands out most by gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    z_scores = (norms - jnp.mean(norms)) / (jnp.std(norms) + 1e-12)
    return int(jnp.argmax(jnp.abs(z_scores)))
